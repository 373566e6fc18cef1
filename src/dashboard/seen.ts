/**
 * The dashboard's sources as a viewer sees them (docs/design.md "The dashboard's users"): only
 * the sheets of their offices, whatever asks — the overview and its counts, a sheet's page, its
 * rows, its report's files and zip, the search. A sheet of another office is not there at all,
 * so that every route answers it exactly as a sheet that does not exist.
 */
import type { SheetDetail } from '../store/progress.js';
import type { OverviewSources, SourcesOf } from './overview.js';
import { type Viewer, viewerOf } from './viewer.js';

/** The sources each request sees, by the viewer the guard let it in as. */
export function seenBy(sources: OverviewSources): SourcesOf {
  return (request) => seenSources(sources, viewerOf(request));
}

export function seenSources(sources: OverviewSources, viewer: Viewer): OverviewSources {
  if (viewer.all) return sources;
  const { sheet, notTaken: _notTaken, ...rest } = sources;
  const seen = <T extends { connection?: string | undefined }>(found: T | undefined) =>
    found !== undefined && viewer.sees(found.connection) ? found : undefined;
  return {
    ...rest,
    overview: async () => (await sources.overview()).filter((s) => viewer.sees(s.connection)),
    // The sheets the hot folder did not take name no office (a path and why): only for those
    // who see every office.
    ...(sheet !== undefined && {
      sheet: async (sheetId: string): Promise<SheetDetail | undefined> =>
        seen(await sheet(sheetId)),
    }),
  };
}
