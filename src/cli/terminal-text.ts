/**
 * Text from a sheet (cells, column names, file names, messages that quote them) as a terminal may
 * show it: a cell holding `ESC[2J` or `ESC]0;…BEL` must not clear the screen, retitle the window or
 * fake a line of output. Control characters are written out the way JSON writes them (`\u001b`,
 * `\n`), so what the user sees is what is in the cell. JSON output needs none of this.
 */

/**
 * C0 controls, DEL, C1 controls (an 8-bit CSI is U+009B), line and paragraph separators, and the
 * bidirectional controls that make text read in another order than it is stored.
 */
const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function writtenOut(ch: string): string {
  return NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Whether a UTF-16 code unit is one that CONTROL matches (every one it matches is below U+FFFF,
 * and no half of a surrogate pair is one).
 */
function isControl(unit: number): boolean {
  if (unit < 0x20) return true;
  if (unit < 0x7f) return false;
  return (
    unit <= 0x9f ||
    unit === 0x61c ||
    unit === 0x200e ||
    unit === 0x200f ||
    (unit >= 0x2028 && unit <= 0x202e) ||
    (unit >= 0x2066 && unit <= 0x2069)
  );
}

/** One line's worth of text: every control character written out, line breaks too. */
export function terminalText(text: string): string {
  // Looked for first, by hand: `validate` shows a few texts of every invalid row, a million rows
  // at times, nearly all without any, and a replace that finds nothing costs twice the look.
  for (let i = 0; i < text.length; i++) {
    if (isControl(text.charCodeAt(i))) return text.replace(CONTROL, writtenOut);
  }
  return text;
}

/** Text of several lines (a stack trace): its line breaks kept, every other control written out. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}
