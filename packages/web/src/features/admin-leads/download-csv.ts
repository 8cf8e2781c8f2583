import { saveBlob } from './save-file';

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
  saveBlob(await res.blob(), fileName);
  return fileName;
}
