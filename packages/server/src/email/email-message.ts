// E-mail bodies (issue 24, ADR 063): plain text and a simple HTML part, every value escaped. Pure.

export type SummaryRow = { label: string; value: string };
/** One part of a summary. Sections are a list: other features (webhook deliveries) add their own. */
export type SummarySection = { title: string; rows: SummaryRow[]; note?: string };

export type Email = { subject: string; text: string; html: string };

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** Subjects are one line: a value with a line break must not add headers or lines. */
const oneLine = (value: string) => value.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();

/** 0.4321 → '43.2 %'; no leads → '–' (no rate to speak of). */
export const formatRate = (part: number, whole: number) =>
  whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)} %`;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:Arial,Helvetica,sans-serif;color:#222">${body}</body></html>`;

export function renderSummary(input: {
  kind: 'Daily' | 'Weekly' | 'Monthly';
  periodLabel: string;
  timeZone: string;
  sections: SummarySection[];
}): Email {
  const subject = oneLine(`${input.kind} lead summary, ${input.periodLabel}`);
  const intro = `${input.kind} summary for ${input.periodLabel} (${input.timeZone}).`;
  const text = [
    intro,
    '',
    ...input.sections.flatMap((s) => [
      s.title,
      ...s.rows.map((r) => `  ${r.label}: ${r.value}`),
      ...(s.rows.length === 0 ? ['  none'] : []),
      ...(s.note ? [`  ${s.note}`] : []),
      '',
    ]),
  ].join('\n');
  const html = page(
    subject,
    `<p>${escapeHtml(intro)}</p>` +
      input.sections
        .map(
          (s) =>
            `<h2 style="font-size:16px">${escapeHtml(s.title)}</h2>` +
            (s.rows.length === 0
              ? '<p>none</p>'
              : `<table cellpadding="4">${s.rows
                  .map(
                    (r) => `<tr><td>${escapeHtml(r.label)}</td><td><b>${escapeHtml(r.value)}</b></td></tr>`,
                  )
                  .join('')}</table>`) +
            (s.note ? `<p style="color:#666">${escapeHtml(s.note)}</p>` : ''),
        )
        .join(''),
  );
  return { subject, text, html };
}

export function renderAlert(input: { title: string; lines: string[] }): Email {
  const subject = oneLine(`Alert: ${input.title}`);
  const text = [input.title, '', ...input.lines].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:18px">${escapeHtml(input.title)}</h1>${input.lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('')}`,
  );
  return { subject, text, html };
}

export function renderTestEmail(input: { username: string }): Email {
  const subject = 'Test e-mail from the lead admin';
  const line = `This test e-mail was sent at the request of the admin ${input.username}. Reports and alerts you opted in to will come from this address.`;
  return { subject, text: line, html: page(subject, `<p>${escapeHtml(line)}</p>`) };
}
