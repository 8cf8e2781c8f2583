/**
 * Downloads a CSV export: the server names the file (Content-Disposition), the browser saves it.
 * Rejects when the server answers with an error, so the caller can show the failure toast.
 */
export async function downloadCsv(path: string, query: Record<string, string>, fallbackName: string) {
  const search = new URLSearchParams(query).toString();
  const res = await fetch(search ? `${path}?${search}` : path, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  const disposition = res.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the blob goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return fileName;
}
