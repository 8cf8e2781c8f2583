import { Button, Menu } from '@mantine/core';
import type { ChoosableColumn, ColumnChoice } from './column-choice';

/** The table's "Columns" menu: one checkbox per column of the table's list, in table order. */
export function ColumnChooser<C extends ChoosableColumn>({ choice }: { choice: ColumnChoice<C> }) {
  return (
    <Menu
      position="bottom-end"
      shadow="md"
      // Rendered at the end of the page's main landmark (not of <body>, outside every landmark, nor
      // inside the card, which would clip it), without Mantine's focusable placeholder, which a menu
      // may not contain. A long list: above the button when there is more room there, never taller
      // than the room left (it scrolls instead), so no column is out of reach.
      portalProps={{ target: 'main' }}
      withInitialFocusPlaceholder={false}
      middlewares={{ flip: true, shift: true, size: true }}
    >
      <Menu.Target>
        <Button variant="default">
          Columns: {choice.shown.length} of {choice.columns.length}
        </Button>
      </Menu.Target>
      <Menu.Dropdown style={{ overflowY: 'auto' }}>
        <Menu.Label>Shown columns (remembered in this browser)</Menu.Label>
        {choice.columns.map((column) => (
          <Menu.CheckboxItem
            key={column.key}
            checked={choice.isShown(column)}
            disabled={column.alwaysShown}
            onChange={(on) => choice.setShown(column, on)}
          >
            {column.label}
          </Menu.CheckboxItem>
        ))}
        <Menu.Divider />
        <Menu.Item disabled={choice.isDefault} onClick={choice.reset}>
          Reset to default columns
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
