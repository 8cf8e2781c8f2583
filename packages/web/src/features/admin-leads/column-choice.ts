import { useLocalStorage } from '@mantine/hooks';
import { useCallback, useMemo } from 'react';

// Which columns a leads table shows (issue 16, ADR 054). The column list in lead-columns.tsx decides
// the default (its `shownByDefault` entries); this browser remembers only the admin's own changes,
// column by column. A column added to the list later therefore appears in the chooser at once, shown
// or not as its entry says, and never disturbs the choices already made.

/** The admin's changes: column key → shown. Keys absent follow the column's default. */
export type ColumnChoices = Record<string, boolean>;

export type ChoosableColumn = {
  key: string;
  label: string;
  /** Part of the table's default set (keep that set at ten columns or fewer). */
  shownByDefault?: boolean;
  /** Never hidden (the spec requires it on every row, e.g. the TCPA badge). */
  alwaysShown?: boolean;
};

export const MAX_DEFAULT_COLUMNS = 10;

export function isColumnShown(column: ChoosableColumn, choices: ColumnChoices): boolean {
  if (column.alwaysShown) return true;
  return choices[column.key] ?? column.shownByDefault === true;
}

export function shownColumns<C extends ChoosableColumn>(columns: readonly C[], choices: ColumnChoices): C[] {
  return columns.filter((c) => isColumnShown(c, choices));
}

/** A stored value as written by another version of the app, or by hand: keep only true/false entries. */
export function parseColumnChoices(raw: string | null | undefined): ColumnChoices {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter(
        (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
      ),
    );
  } catch {
    return {};
  }
}

/** The choice after the admin flips one column; a choice equal to the default is forgotten. */
export function chooseColumn(column: ChoosableColumn, choices: ColumnChoices, shown: boolean): ColumnChoices {
  const { [column.key]: _previous, ...rest } = choices;
  return shown === (column.shownByDefault === true) ? rest : { ...rest, [column.key]: shown };
}

/** The columns a table shows, remembered in this browser under `storageKey`. */
export function useColumnChoice<C extends ChoosableColumn>(storageKey: string, columns: readonly C[]) {
  const [choices, setChoices] = useLocalStorage<ColumnChoices>({
    key: storageKey,
    defaultValue: {},
    getInitialValueInEffect: false,
    serialize: JSON.stringify,
    deserialize: parseColumnChoices,
  });
  const shown = useMemo(() => shownColumns(columns, choices), [columns, choices]);
  const setShown = useCallback(
    (column: C, on: boolean) => setChoices((current) => chooseColumn(column, current, on)),
    [setChoices],
  );
  const reset = useCallback(() => setChoices({}), [setChoices]);
  return {
    columns,
    shown,
    isShown: (column: C) => isColumnShown(column, choices),
    setShown,
    reset,
    isDefault: Object.keys(choices).length === 0,
  };
}

export type ColumnChoice<C extends ChoosableColumn> = ReturnType<typeof useColumnChoice<C>>;
