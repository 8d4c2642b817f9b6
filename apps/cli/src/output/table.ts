import Table from 'cli-table3';

/** kubectl's table look: no borders, two spaces between columns, headers as given. */
export function plainTable(head: string[]): Table.Table {
  return new Table({
    head,
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}

/** The table's text with trailing blanks trimmed, ending in a newline. */
export function formatTable(table: Table.Table): string {
  return `${table.toString().replace(/[ \t]+$/gm, '')}\n`;
}
