/**
 * Each report's files and its failed/ bundle (a zip), for the sheets the overview knows. Every
 * file is opened as attachments are (open-attachment.ts): never through a link.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { finished, PassThrough } from 'node:stream';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import yazl from 'yazl';

import { lstatIfThere, statIfThere } from '../intake/files.js';
import { AttachmentRefused, type OpenedFile, openInside } from '../orders/open-attachment.js';
import type { PageAssets } from './assets.js';
import { errorPage } from './error-pages.js';
import { data, say } from './html.js';
import type { DashboardLanguages } from './language.js';
import { sendFramed } from './pages.js';

/** The report folder of a sheet, only when the sheet is one the overview shows the request's viewer. */
export type ReportDirOf = (sheetId: string, request: FastifyRequest) => Promise<string | undefined>;

/** The files of a report folder the dashboard hands out, with their media types. */
const REPORT_FILES: Record<string, string> = {
  'report.csv': 'text/csv; charset=utf-8',
  'needs-review.csv': 'text/csv; charset=utf-8',
  'summary.json': 'application/json; charset=utf-8',
};

/** What a missing file is told with: a page in the reader's language (a person clicked a link). */
export interface MissingPage {
  assets: PageAssets;
  languages: DashboardLanguages;
}

/** `/reports/:sheetId/:file` (report.csv, needs-review.csv, summary.json) and `…/failed.zip`. */
export function reportRoutes(
  app: FastifyInstance,
  reportDir: ReportDirOf,
  missing: MissingPage,
): void {
  app.get<{ Params: { sheetId: string; file: string } }>(
    '/reports/:sheetId/:file',
    async (request, reply) => {
      const { sheetId, file } = request.params;
      const type = REPORT_FILES[file];
      const dir = await reportDir(sheetId, request);
      const opened =
        type === undefined || dir === undefined ? undefined : await openReport(dir, file);
      if (type === undefined || opened === undefined)
        return sendMissing(request, reply, missing, { file });
      const [stem, extension] = file.split('.');
      const stream = opened.stream();
      finished(stream, () => void opened.close());
      return reply
        .type(type)
        .header('content-disposition', `attachment; filename="${stem}-${sheetId}.${extension}"`)
        .send(stream);
    },
  );
  app.get<{ Params: { sheetId: string } }>(
    '/reports/:sheetId/failed.zip',
    async (request, reply) => {
      const dir = await reportDir(request.params.sheetId, request);
      const failed = dir === undefined ? undefined : join(dir, 'failed');
      if (failed === undefined || !(await isDir(failed))) {
        return sendMissing(request, reply, missing, undefined);
      }
      return reply
        .type('application/zip')
        .header(
          'content-disposition',
          `attachment; filename="failed-${request.params.sheetId}.zip"`,
        )
        .send(await zipFolder(failed));
    },
  );
}

/** The 404 page of a report's file (`file`) or failed/ bundle (none) that is not there. */
function sendMissing(
  request: FastifyRequest,
  reply: FastifyReply,
  { assets, languages }: MissingPage,
  report: { file: string } | undefined,
): FastifyReply {
  const words = languages.of(request);
  const text =
    report === undefined
      ? say(words, 'dashboard.noFailed.text')
      : say(words, 'dashboard.noReportFile.text', { file: data(report.file) });
  const page = errorPage(words, 'dashboard.noReportFile.heading', text, {
    href: '/',
    key: 'dashboard.unknownSheet.back',
  });
  return sendFramed(reply, assets, { words, url: request.url }, 404, page);
}

/**
 * A report's file, opened as attachments are (never through a link), in a report folder that is
 * not a link itself; undefined when there is no such plain file.
 */
async function openReport(dir: string, file: string): Promise<OpenedFile | undefined> {
  if (!(await lstatIfThere(dir))?.isDirectory()) return undefined;
  try {
    return await openInside(dir, file);
  } catch (error) {
    if (error instanceof AttachmentRefused) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function isDir(path: string): Promise<boolean> {
  return (await statIfThere(path))?.isDirectory() ?? false;
}

/**
 * A folder as a zip stream, laid out as on disk, under a top folder named `failed/`. Only regular
 * files reached without any link go in, each opened as attachments are (open-attachment.ts) when
 * its turn comes: a failed/ that is a link, or a file or folder in it that is one, adds nothing.
 */
async function zipFolder(folder: string): Promise<PassThrough> {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  // A file gone or swapped for a link since the walk: the download breaks off, never leaks.
  zip.on('error', (error: Error) => out.destroy(error));
  const root = dirname(folder);
  const walk = async (dir: string): Promise<void> => {
    // A Dirent is the entry itself: a link is neither a folder nor a file here.
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const inside = relative(root, path);
        zip.addReadStreamLazy(join('failed', relative(folder, path)), (done) => {
          openInside(root, inside).then(
            (file) => {
              const stream = file.stream();
              finished(stream, () => void file.close());
              done(null, stream);
            },
            (error: unknown) => {
              done(error, new PassThrough());
            },
          );
        });
      }
    }
  };
  if ((await lstatIfThere(folder))?.isDirectory()) await walk(folder);
  zip.end();
  zip.outputStream.pipe(out);
  return out;
}
