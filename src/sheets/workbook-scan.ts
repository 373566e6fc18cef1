/**
 * A small XML scanner for the parts that are large: a worksheet and the shared strings. saxes
 * (workbook-xml.ts) reads the other parts; on a worksheet of 100,000 rows × 30 columns it spends about 5 s of CPU (an
 * object per tag and per attribute), three times what validating the rows costs, which puts the
 * workbook below half its CSV twin's speed. This scanner makes no object per tag: it hands on an
 * element's name and its attributes as written, and decodes text only where it is asked to. It
 * still refuses what is not XML: tags that do not nest, undefined entities, a DTD (a worksheet has
 * none, and a DTD is how entity bombs come in), text left unclosed at the end.
 */
import { StringDecoder } from 'node:string_decoder';

import { SheetError } from './errors.js';
import { said } from './said.js';
import { saveAgain } from './workbook-zip.js';

export interface ScanHandlers {
  /**
   * An element opened; its attributes as written (`r="A1" t="s"`) are `xml` from `from` to `to`,
   * read with `eachAttribute` by a handler that needs them (most elements' are never looked at).
   */
  open(name: string, xml: string, from: number, to: number): void;
  close(name: string): void;
  /** Whether the text now met is wanted (decoding it costs); if so, it comes to `text`. */
  wantsText(): boolean;
  text(text: string): void;
}

/** Scans a part's chunks, yielding after each so that a caller can take what was found so far. */
export async function* scanXml(
  chunks: AsyncIterable<Buffer>,
  handlers: ScanHandlers,
): AsyncGenerator<void> {
  const scanner = new XmlScanner(handlers);
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of chunks) {
    let text = decoder.write(chunk);
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    scanner.write(text);
    yield;
  }
  scanner.write(decoder.end());
  scanner.end();
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Scans XML given piece by piece; `end()` checks that it was whole. */
class XmlScanner {
  #rest = '';
  readonly #open: string[] = [];
  #rootClosed = false;

  constructor(private readonly handlers: ScanHandlers) {}

  write(piece: string): void {
    const xml = this.#rest + piece;
    let at = 0;
    for (;;) {
      const lt = xml.indexOf('<', at);
      const textEnd = lt < 0 ? xml.length : lt;
      if (textEnd > at && this.handlers.wantsText()) {
        // Text may be cut at a chunk's end inside an entity: keep an unfinished one for later.
        const amp = lt < 0 ? xml.lastIndexOf('&') : -1;
        const cut = amp >= at && xml.indexOf(';', amp) < 0 ? amp : textEnd;
        if (cut > at) this.handlers.text(decode(xml.slice(at, cut)));
        at = cut;
      } else at = textEnd;
      if (lt < 0) break;
      const next = this.#markup(xml, lt);
      if (next < 0) break; // an unfinished tag: wait for more
      at = next;
    }
    this.#rest = xml.slice(at);
    if (this.#rest.length > 16 * 1024 * 1024) throw notXml('a tag or text that never ends');
  }

  end(): void {
    if (this.#rest.trim() !== '' || this.#open.length > 0 || !this.#rootClosed)
      throw notXml('it ends before its last element is closed');
  }

  /** The markup at `lt`; where what follows it begins, or -1 if it is not all there yet. */
  #markup(xml: string, lt: number): number {
    const second = xml.charCodeAt(lt + 1);
    if (second === 0x3f /* ? */) return skipTo(xml, lt, '?>');
    if (second === 0x21 /* ! */) return this.#declaration(xml, lt);
    const gt = tagEnd(xml, lt);
    if (gt < 0) return -1;
    if (second === 0x2f /* / */) {
      this.#close(xml, lt + 2, gt);
      return gt + 1;
    }
    const selfClosing = xml.charCodeAt(gt - 1) === 0x2f;
    const end = selfClosing ? gt - 1 : gt;
    let nameEnd = lt + 1;
    while (nameEnd < end && xml.charCodeAt(nameEnd) > 0x20) nameEnd += 1;
    const name = tagName(xml, lt + 1, nameEnd);
    if (name === '' || this.#rootClosed) throw notXml(`an unexpected "<${name}"`);
    this.#open.push(name);
    this.handlers.open(localPart(name), xml, nameEnd, end);
    if (selfClosing) this.#closeOpen();
    return gt + 1;
  }

  #declaration(xml: string, lt: number): number {
    if (xml.startsWith('<!--', lt)) return skipTo(xml, lt, '-->');
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0) return -1;
      if (this.handlers.wantsText()) this.handlers.text(xml.slice(lt + 9, end));
      return end + 3;
    }
    if (xml.length - lt < 9) return -1;
    throw notXml('a document type declaration, which a worksheet never has');
  }

  /** The end tag between `from` and `to` (its name and any space after it). */
  #close(xml: string, from: number, to: number): void {
    const opened = this.#open.at(-1) ?? '';
    const after = from + opened.length;
    if (!xml.startsWith(opened, from) || after > to || xml.slice(after, to).trim() !== '')
      throw notXml(`"</${xml.slice(from, to).trim()}>" where "</${opened}>" was expected`);
    this.#closeOpen();
  }

  #closeOpen(): void {
    const name = this.#open.pop() ?? '';
    this.handlers.close(localPart(name));
    if (this.#open.length === 0) this.#rootClosed = true;
  }
}

/**
 * The name of the tag from `from` to `to`. A worksheet's tags are nearly all `row`, `c` and `v`:
 * those are told by their characters and given as constants, not cut from the text (a string
 * per tag was a good part of the scanner's garbage).
 */
function tagName(xml: string, from: number, to: number): string {
  const first = xml.charCodeAt(from);
  if (to - from === 1) {
    if (first === 0x63 /* c */) return 'c';
    if (first === 0x76 /* v */) return 'v';
    if (first === 0x74 /* t */) return 't';
  } else if (to - from === 3 && first === 0x72 && xml.startsWith('row', from)) return 'row';
  return xml.slice(from, to);
}

/**
 * The `>` that ends the tag opened at `lt`, or -1 if it is not all there yet. XML allows a `>`
 * inside a quoted attribute value (`x="a>b"`): the first `>` would end the tag too soon and refuse
 * a workbook Excel reads. Only the tag's own characters are looked at, one by one.
 */
function tagEnd(xml: string, lt: number): number {
  let quote = 0;
  for (let at = lt + 1; at < xml.length; at++) {
    const code = xml.charCodeAt(at);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 0x3e /* > */) return at;
    else if (code === 0x22 /* " */ || code === 0x27 /* ' */) quote = code;
  }
  return -1;
}

function skipTo(xml: string, lt: number, end: string): number {
  const at = xml.indexOf(end, lt);
  return at < 0 ? -1 : at + end.length;
}

function localPart(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** Where an attribute's name and value (as written) lie in the XML: one, reused, per reader. */
export interface AttributeSpan {
  nameFrom: number;
  nameTo: number;
  valueFrom: number;
  valueTo: number;
}

/**
 * Finds the attribute after `at` (and before `to`) into `span`, without cutting any string; where
 * the next one may begin, or -1 if there is none. For the hot `<c>` tags, read this way rather
 * than through `eachAttribute`'s strings and callback.
 */
export function nextAttribute(xml: string, at: number, to: number, span: AttributeSpan): number {
  const eq = xml.indexOf('=', at);
  if (eq < 0 || eq >= to) return -1;
  let nameFrom = at;
  while (nameFrom < eq && xml.charCodeAt(nameFrom) <= 0x20) nameFrom += 1;
  let nameTo = eq;
  while (nameTo > nameFrom && xml.charCodeAt(nameTo - 1) <= 0x20) nameTo -= 1;
  const colon = xml.indexOf(':', nameFrom);
  if (colon >= 0 && colon < nameTo) nameFrom = colon + 1;
  let open = eq + 1;
  while (xml.charCodeAt(open) <= 0x20 && open < xml.length) open += 1;
  const quote = xml[open];
  if (quote !== '"' && quote !== "'")
    throw notXml(`an attribute ${xml.slice(nameFrom, nameTo)} without quotes`);
  const close = xml.indexOf(quote, open + 1);
  if (close < 0 || close >= to)
    throw notXml(`an attribute ${xml.slice(nameFrom, nameTo)} without its closing quote`);
  span.nameFrom = nameFrom;
  span.nameTo = nameTo;
  span.valueFrom = open + 1;
  span.valueTo = close;
  return close + 1;
}

/** An attribute's value found by `nextAttribute`, its entities decoded. */
export function attributeValue(xml: string, span: AttributeSpan): string {
  return decode(xml.slice(span.valueFrom, span.valueTo));
}

/** Calls `visit` with each attribute's name (without prefix) and value (entities decoded). */
export function eachAttribute(
  xml: string,
  from: number,
  to: number,
  visit: (name: string, value: string) => void,
): void {
  const attributes = xml;
  let at = from;
  for (;;) {
    const eq = attributes.indexOf('=', at);
    if (eq < 0 || eq >= to) return;
    const name = attributes.slice(at, eq).trim();
    let open = eq + 1;
    while (attributes.charCodeAt(open) <= 0x20 && open < attributes.length) open += 1;
    const quote = attributes[open];
    if (quote !== '"' && quote !== "'") throw notXml(`an attribute ${name} without quotes`);
    const close = attributes.indexOf(quote, open + 1);
    if (close < 0 || close >= to) throw notXml(`an attribute ${name} without its closing quote`);
    visit(localPart(name), decode(attributes.slice(open + 1, close)));
    at = close + 1;
  }
}

/** Text with its entities and character references replaced. */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw notXml(`an "&" that begins no entity`);
    const named = ENTITIES[name];
    if (named !== undefined) return named;
    const code = /^#x[0-9a-f]+$/i.test(name)
      ? parseInt(name.slice(2), 16)
      : /^#\d+$/.test(name)
        ? parseInt(name.slice(1), 10)
        : Number.NaN;
    if (!Number.isInteger(code) || code > 0x10ffff) throw notXml(`an unknown entity "&${name};"`);
    return String.fromCodePoint(code);
  });
}

function notXml(what: string): SheetError {
  return new SheetError(saveAgain(said('sheets.workbook.worksheetNotXml', { detail: what })));
}
