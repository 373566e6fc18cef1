import type { Readable } from 'node:stream';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { BlobWrite } from '../blobs.js';
import {
  MEDIA_MODEL,
  modelNotFound,
  ORDER_MODEL,
  POST_TOO_LARGE,
  validationBody,
} from '../laravel.js';
import { cleanInput } from '../order-rules.js';
import { answerCreated, sendJson, sendMessage } from '../reply.js';
import type { RuleSet, UploadedFile } from '../validator.js';
import { validate } from '../validator.js';
import { recordId, type SandboxContext } from './context.js';

const UPLOAD_RULES: RuleSet = [
  ['model_id', [{ kind: 'required' }]],
  ['model_type', [{ kind: 'required' }, { kind: 'string' }, { kind: 'in', values: ['order'] }]],
  [
    'collection_name',
    [{ kind: 'required' }, { kind: 'string' }, { kind: 'in', values: ['clientFiles'] }],
  ],
  ['files', [{ kind: 'required' }, { kind: 'array' }]],
  ['files.*', [{ kind: 'required' }, { kind: 'file' }]],
];

interface ReceivedFile {
  fileName: string;
  mimeType: string;
  written: BlobWrite;
}

/** A multipart body as PHP hands it to Laravel: text fields, and `files[]` as a list. */
interface ReceivedForm {
  fields: Record<string, string>;
  /** `files[]`/`files[n]` parts, or one `files` part (which fails the `array` rule). */
  files: ReceivedFile[] | ReceivedFile | undefined;
  totalBytes: number;
  /** Every file written to the blob store so far, kept or not. */
  stored: ReceivedFile[];
}

export function fileRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  api.post('/api/files', async (request, reply) => {
    if (!request.isMultipart()) {
      return sendMessage(
        reply,
        415,
        'Files must be sent as multipart/form-data (fields model_id, model_type, collection_name, files[]).',
      );
    }
    const form: ReceivedForm = { fields: {}, files: undefined, totalBytes: 0, stored: [] };
    const discard = () => Promise.all(form.stored.map((f) => ctx.blobs.remove(f.written.key)));
    try {
      await receiveForm(request, ctx, form);
    } catch (error) {
      await discard(); // a broken or aborted body leaves nothing behind
      throw error;
    }
    // PHP refuses a chunked body past post_max_size once it has read it.
    if (form.totalBytes > ctx.options.postMaxBytes) {
      await discard();
      return sendMessage(reply, 413, POST_TOO_LARGE);
    }
    const fields = cleanInput(form.fields) as Record<string, string | null>;
    const modelId = fields.model_id;
    const orderId = typeof modelId === 'string' ? recordId(modelId) : null;
    if (typeof modelId === 'string' && !ctx.store.getOrder(request.org, orderId ?? -1)) {
      await discard();
      return sendMessage(reply, 404, modelNotFound(ORDER_MODEL, modelId));
    }
    const asUpload = (f: ReceivedFile): UploadedFile => ({
      kind: 'uploaded-file',
      ok: f.written.complete,
    });
    const errors = validate(
      {
        ...fields,
        files: Array.isArray(form.files)
          ? form.files.map(asUpload)
          : form.files && asUpload(form.files),
      },
      UPLOAD_RULES,
    );
    if (Object.keys(errors).length > 0 || orderId === null) {
      await discard();
      return sendJson(reply, 422, validationBody(errors));
    }
    const ids = ctx.store.addFiles(
      form.stored.map((f) => ({
        org: request.org,
        orderId,
        collection: 'clientFiles',
        fileName: f.fileName,
        mimeType: f.mimeType,
        size: f.written.size,
        sha256: f.written.sha256,
        blobKey: f.written.key,
      })),
    );
    // The controller answers with the last media record it added.
    return answerCreated(request, reply, { id: ids.at(-1) });
  });

  api.get<{ Params: { id: string } }>('/api/files/:id', async (request, reply) => {
    const id = recordId(request.params.id);
    const file = id === null ? undefined : ctx.store.getFile(request.org, id);
    if (!file) return sendMessage(reply, 404, modelNotFound(MEDIA_MODEL, request.params.id));
    return sendStream(reply, ctx.blobs.read(file.blobKey), {
      'content-type': file.mimeType,
      'content-length': file.size,
      'content-disposition': contentDisposition(file.fileName),
    });
  });
}

function sendStream(
  reply: FastifyReply,
  stream: Readable,
  headers: Record<string, string | number>,
): FastifyReply {
  return reply.code(200).headers(headers).send(stream);
}

async function receiveForm(
  request: FastifyRequest,
  ctx: SandboxContext,
  form: ReceivedForm,
): Promise<void> {
  const { uploadMaxFileBytes, maxFileUploads } = ctx.options;
  const list: ReceivedFile[] = [];
  const count = (chunk: Buffer) => {
    form.totalBytes += chunk.length;
  };
  // A client that goes away mid-file leaves the part stream hanging: abort the write instead.
  const cutOff = new AbortController();
  const onClose = () => {
    if (!request.raw.complete)
      cutOff.abort(new Error('the client closed the connection mid-upload'));
  };
  const parts = request.parts();
  request.raw.on('data', count);
  request.raw.on('close', onClose);
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        form.fields[part.fieldname] = String(part.value);
        continue;
      }
      const slot = fileSlot(part.fieldname);
      if (slot === null || (maxFileUploads !== undefined && list.length >= maxFileUploads)) {
        part.file.resume(); // PHP ignores it; the stream must still be read to reach the next part
        continue;
      }
      const received: ReceivedFile = {
        fileName: part.filename || 'file',
        mimeType: part.mimetype || 'application/octet-stream',
        written: await ctx.blobs.write(part.file, uploadMaxFileBytes, cutOff.signal),
      };
      form.stored.push(received);
      if (slot === 'single') form.files = received;
      else list.push(received);
    }
  } finally {
    request.raw.off('data', count);
    request.raw.off('close', onClose);
  }
  if (list.length > 0) form.files = list;
}

/** PHP's reading of a file part's name: `files[]`/`files[3]` join the list, `files` stands alone. */
function fileSlot(fieldName: string): 'list' | 'single' | null {
  if (/^files\[\d*\]$/.test(fieldName)) return 'list';
  return fieldName === 'files' ? 'single' : null;
}

/** Symfony's attachment disposition: an ASCII fallback, and the UTF-8 name when it differs. */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const disposition = `attachment; filename="${fallback}"`;
  if (fallback === fileName) return disposition;
  return `${disposition}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}
