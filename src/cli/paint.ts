/** ANSI colours for human output, only on a terminal and never when NO_COLOR is set. */
export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export function paint(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv): Paint {
  const on = (stream as { isTTY?: boolean }).isTTY === true && !env.NO_COLOR;
  const wrap = (open: number, close: number) => (text: string) =>
    on ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
  };
}
