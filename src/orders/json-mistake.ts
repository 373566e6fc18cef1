/**
 * A JSON file a person wrote (a mapping, the config file, the catalogue) that does not parse:
 * where the mistake is, as a text editor counts — line and column, not V8's "position 65".
 */
export function jsonMistake(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(.*?)(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?$/s.exec(
    message,
  );
  if (match === null) return message;
  const position = Number(match[2]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `${match[1] ?? message} at line ${line}, column ${column}`;
}
