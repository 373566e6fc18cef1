/**
 * A workbook part's XML, parsed as it inflates (saxes, a streaming parser that checks the XML is
 * well-formed and expands no entity it was not born with). Element names are taken without their
 * prefix: a producer may write `<x:row>` for `<row>`.
 */
import { StringDecoder } from 'node:string_decoder';

import { SaxesParser, type SaxesTagPlain } from 'saxes';

import { said } from './said.js';
import { damaged } from './workbook-zip.js';

export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  /** Text and CDATA inside elements. */
  text?(text: string): void;
  close?(name: string): void;
}

/** An element's name without its namespace prefix. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * Parses `part`'s chunks with `handlers`, yielding after each chunk so that a caller can take
 * what the handlers found so far (a worksheet's rows) before more is inflated.
 */
export async function* parseXml(
  chunks: AsyncIterable<Buffer>,
  part: string,
  handlers: XmlHandlers,
): AsyncGenerator<void> {
  const parser = new SaxesParser();
  // A handler's own error (a refusal, a bug) goes on as it is; only the parser's is "not XML".
  let own: unknown;
  const guard =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A) => {
      try {
        handler(...args);
      } catch (error) {
        own = error;
        throw error;
      }
    };
  parser.on(
    'opentag',
    guard((tag: SaxesTagPlain) => {
      handlers.open(localName(tag.name), tag.attributes);
    }),
  );
  if (handlers.text !== undefined) {
    const text = guard((piece: string) => handlers.text?.(piece));
    parser.on('text', text);
    parser.on('cdata', text);
  }
  if (handlers.close !== undefined)
    parser.on(
      'closetag',
      guard((tag) => handlers.close?.(localName(tag.name))),
    );
  const decoder = new StringDecoder('utf8');
  let first = true;
  const write = (chunk: string) => {
    try {
      parser.write(chunk);
    } catch (error) {
      throw error === own ? error : notXml(part, error);
    }
  };
  for await (const chunk of chunks) {
    let decoded = decoder.write(chunk);
    if (first && decoded.length > 0) {
      first = false;
      if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
    }
    write(decoded);
    yield;
  }
  write(decoder.end());
  try {
    parser.close();
  } catch (error) {
    throw notXml(part, error);
  }
}

/** Parses the whole of a part kept in memory (relationships, the workbook, styles, texts). */
export async function readXml(
  chunks: AsyncIterable<Buffer>,
  part: string,
  handlers: XmlHandlers,
): Promise<void> {
  for await (const _ of parseXml(chunks, part, handlers));
}

function notXml(part: string, error: unknown) {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return damaged(said('sheets.workbook.partNotXml', { part, detail: reason ?? '' }), error);
}
