/**
 * After a submit with errors: moves focus to the form's first invalid field (document order), once the
 * error messages have rendered, so keyboard and screen-reader users land on what to fix (issue 13).
 * Fields mark themselves with aria-invalid and point at their message with aria-describedby.
 */
export function focusFirstInvalid(form: HTMLFormElement | null | undefined): void {
  requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
