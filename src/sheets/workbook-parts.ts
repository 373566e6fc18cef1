/**
 * Where a workbook's parts are, found as Excel finds them: through the package's relationships
 * (`_rels/.rels` → the workbook part, its own relationships → its worksheets, shared strings and
 * styles), never by a path assumed or by an entry's place in the zip. Targets are relative to the
 * part that names them or absolute (`/xl/worksheets/sheet1.xml`, as openpyxl writes them), and
 * never lead outside the zip's names. Each part kept in memory is capped.
 */
import { SheetError } from './errors.js';
import { said } from './said.js';
import { readXml } from './workbook-xml.js';
import { damaged, saveAgain, type WorkbookZip } from './workbook-zip.js';

const MB = 1024 * 1024;
/** Inflated sizes of the parts read whole, at most (the worksheet's is in workbook-rows.ts). */
export const MAX_PART_BYTES = {
  relationships: 4 * MB,
  workbook: 16 * MB,
  styles: 16 * MB,
  sharedStrings: 128 * MB,
};

export interface Worksheet {
  name: string;
  /** Its part's name in the zip. */
  part: string;
}

export interface WorkbookParts {
  /** The workbook's worksheets in its own order (chart sheets left out). */
  worksheets: Worksheet[];
  sharedStrings?: string;
  styles?: string;
  /** Whether its dates count from 1904 (old Mac workbooks) rather than from 1900. */
  date1904: boolean;
}

interface Relationship {
  type: string;
  /** Undefined when its target leads outside the zip. */
  part: string | undefined;
}

/** The workbook's parts, or a SheetError naming what is missing. */
export async function findParts(zip: WorkbookZip): Promise<WorkbookParts> {
  const book = (await relationships(zip, '')).find((r) => r.type === 'officeDocument')?.part;
  if (book === undefined || !zip.has(book)) {
    const hint = zip.has('content.xml')
      ? said('sheets.workbook.ods')
      : saveAgain(said('sheets.workbook.zipWithoutBook'));
    throw new SheetError(
      said('sheets.workbook.fix', { problem: said('sheets.workbook.notWorkbook'), fix: hint }),
    );
  }
  const related = new Map<string, Relationship>();
  for (const [id, r] of await relationshipsById(zip, book)) related.set(id, r);
  const { sheets, date1904 } = await workbookPart(zip, book);
  const worksheets: Worksheet[] = [];
  for (const sheet of sheets) {
    const target = sheet.id === undefined ? undefined : related.get(sheet.id);
    if (target === undefined)
      throw damaged(said('sheets.workbook.sheetLeadsNowhere', { sheet: sheet.name }));
    if (target.type !== 'worksheet') continue; // a chart sheet, a dialog sheet: no rows
    if (target.part === undefined || !zip.has(target.part))
      throw damaged(said('sheets.workbook.worksheetGone', { sheet: sheet.name }));
    worksheets.push({ name: sheet.name, part: target.part });
  }
  const byType = (type: string) => [...related.values()].find((r) => r.type === type)?.part;
  const present = (part: string | undefined) =>
    part !== undefined && zip.has(part) ? part : undefined;
  const sharedStrings = present(byType('sharedStrings'));
  const styles = present(byType('styles'));
  return {
    worksheets,
    date1904,
    ...(sharedStrings !== undefined && { sharedStrings }),
    ...(styles !== undefined && { styles }),
  };
}

async function workbookPart(
  zip: WorkbookZip,
  part: string,
): Promise<{ sheets: { name: string; id: string | undefined }[]; date1904: boolean }> {
  const sheets: { name: string; id: string | undefined }[] = [];
  let date1904 = false;
  await readXml(
    zip.chunks(
      part,
      MAX_PART_BYTES.workbook,
      said('sheets.workbook.part.named', { part: 'workbook' }),
    ),
    part,
    {
      open: (name, attributes) => {
        if (name === 'workbookPr') date1904 = isTrue(attributes.date1904);
        if (name !== 'sheet') return;
        // r:id, whatever prefix the producer gave the relationships' namespace.
        const id = Object.entries(attributes).find(([key]) => key.endsWith(':id'))?.[1];
        sheets.push({ name: attributes.name ?? '', id });
      },
    },
  );
  return { sheets, date1904 };
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

async function relationships(zip: WorkbookZip, source: string): Promise<Relationship[]> {
  return [...(await relationshipsById(zip, source)).values()];
}

/** The relationships of the part `source` ('' for the package), by their id. */
async function relationshipsById(
  zip: WorkbookZip,
  source: string,
): Promise<Map<string, Relationship>> {
  const slash = source.lastIndexOf('/');
  const folder = source.slice(0, slash + 1);
  const rels = `${folder}_rels/${source.slice(slash + 1)}.rels`;
  const found = new Map<string, Relationship>();
  if (!zip.has(rels)) return found;
  await readXml(
    zip.chunks(
      rels,
      MAX_PART_BYTES.relationships,
      said('sheets.workbook.part.file', { part: rels }),
    ),
    rels,
    {
      open: (name, a) => {
        if (name !== 'Relationship' || a.TargetMode === 'External') return;
        if (a.Id === undefined || a.Type === undefined || a.Target === undefined) return;
        const part = resolveTarget(folder, a.Target);
        // Transitional and strict relationship types end the same way.
        found.set(a.Id, { type: a.Type.slice(a.Type.lastIndexOf('/') + 1), part });
      },
    },
  );
  return found;
}

/** A relationship's target as a part name, or undefined when it leads outside the zip. */
function resolveTarget(folder: string, target: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(target.split('#')[0] ?? '');
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
  const segments = path.startsWith('/') ? [] : folder.split('/').filter((s) => s !== '');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.pop() === undefined) return undefined;
  }
  return segments.length === 0 ? undefined : segments.join('/');
}
