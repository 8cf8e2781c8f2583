/**
 * What the visitor entered in a prerendered form before the app took it over (ADR 053): the fields take
 * input at once, and hydration keeps what the page shows but starts the form's state empty. By field
 * name; a ticked checkbox as `true`; empty fields and unticked boxes are left out.
 */
export function enteredValues(
  form: HTMLFormElement | null,
  names: readonly string[],
): Record<string, string | true> {
  const entered: Record<string, string | true> = {};
  if (!form) return entered;
  for (const name of names) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement && field.type === 'checkbox') {
      if (field.checked) entered[name] = true;
    } else if (
      (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) &&
      field.value !== ''
    ) {
      entered[name] = field.value;
    }
  }
  return entered;
}
