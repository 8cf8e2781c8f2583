import { HONEYPOT_FIELD } from '@uf/shared/quality-fields';

/**
 * A field people never see (issue 33): off screen rather than display:none (which some bots skip), out of
 * the tab order, hidden from assistive technology, and marked so password managers and autofill leave it
 * alone. Only a bot filling every input fills it.
 */
export function HoneypotField() {
  return (
    <div
      aria-hidden="true"
      style={{ position: 'absolute', left: '-10000px', top: 'auto', width: 1, height: 1, overflow: 'hidden' }}
    >
      <label>
        Reference code (leave empty)
        <input
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
          data-1p-ignore="true"
          data-lpignore="true"
          data-bwignore="true"
          data-form-type="other"
        />
      </label>
    </div>
  );
}
