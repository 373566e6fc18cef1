/**
 * A multipart body read the way PHP reads it before Laravel sees it: text fields by name (the
 * last one wins), `files[]`/`files[n]` parts as a list, an empty file input as "no file", files
 * past max_file_uploads dropped, an over-sized file kept as an upload error, and a body PHP
 * cannot parse read as an empty form rather than as a server error.
 */
import type { FastifyRequest } from 'fastify';

import type { BlobStore, BlobWrite } from './blobs.js';

/** One entry of the `files` list as Laravel sees it. */
export type FileEntry =
  | { kind: 'file'; fileName: string; written: BlobWrite }
  | { kind: 'no-file' }
  | { kind: 'text'; value: string };

export interface ReceivedForm {
  fields: Record<string, string>;
  /** `files[]` parts as a list, or a lone `files` part (which is not a list). */
  files: { list: FileEntry[] } | { single: FileEntry } | undefined;
  /** Body bytes read, for a chunked body that carries no Content-Length. */
  totalBytes: number;
  /** Every blob written, kept or not, so that a refused upload can be undone. */
  stored: BlobWrite[];
}

export interface FormLimits {
  /** upload_max_filesize */
  uploadMaxFileBytes?: number;
  /** max_file_uploads */
  maxFileUploads?: number;
}

/** busboy's words for a body that is not well-formed multipart. */
const MALFORMED =
  /^(Multipart: |Malformed part header|Unexpected end of form|Part terminated early)/;

/** Reads the form into `form` (filled in place, so a failure part-way still lists its blobs). */
export async function receiveForm(
  request: FastifyRequest,
  blobs: BlobStore,
  limits: FormLimits,
  form: ReceivedForm,
): Promise<void> {
  // A client that goes away mid-file leaves the part stream hanging: abort the write instead.
  const cutOff = new AbortController();
  const onClose = () => {
    if (!request.raw.complete)
      cutOff.abort(new Error('the client closed the connection mid-upload'));
  };
  const count = (chunk: Buffer) => {
    form.totalBytes += chunk.length;
  };
  request.raw.on('data', count);
  request.raw.on('close', onClose);
  const list: FileEntry[] = [];
  let uploads = 0;
  try {
    for await (const part of request.parts()) {
      const slot = fileSlot(part.fieldname);
      if (part.type === 'field') {
        const value = String(part.value);
        if (slot === null) form.fields[part.fieldname] = value;
        else place(form, list, slot, { kind: 'text', value });
        continue;
      }
      if (slot === null) {
        part.file.resume(); // PHP ignores it; the stream must still be read to reach the next part
        continue;
      }
      if (part.filename === '') {
        part.file.resume();
        place(form, list, slot, { kind: 'no-file' });
        continue;
      }
      if (limits.maxFileUploads !== undefined && uploads >= limits.maxFileUploads) {
        part.file.resume(); // past max_file_uploads PHP drops files without a word
        continue;
      }
      uploads += 1;
      const written = await blobs.write(part.file, limits.uploadMaxFileBytes, cutOff.signal);
      form.stored.push(written);
      place(form, list, slot, { kind: 'file', fileName: part.filename, written });
    }
  } catch (error) {
    if (cutOff.signal.aborted || !(error instanceof Error) || !MALFORMED.test(error.message)) {
      throw error;
    }
    request.log.debug({ err: error }, 'malformed multipart body read as an empty form');
  } finally {
    request.raw.off('data', count);
    request.raw.off('close', onClose);
  }
  if (list.length > 0) form.files = { list };
}

function place(form: ReceivedForm, list: FileEntry[], slot: 'list' | 'single', entry: FileEntry) {
  if (slot === 'list') list.push(entry);
  else form.files = { single: entry };
}

/** PHP's reading of a part's name: `files[]`/`files[3]` join the list, `files` stands alone. */
function fileSlot(fieldName: string): 'list' | 'single' | null {
  if (/^files\[\d*\]$/.test(fieldName)) return 'list';
  return fieldName === 'files' ? 'single' : null;
}
