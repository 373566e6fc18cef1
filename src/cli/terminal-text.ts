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

/** One line's worth of text: every control character written out, line breaks too. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, writtenOut);
}

/** Text of several lines (a stack trace): its line breaks kept, every other control written out. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}
