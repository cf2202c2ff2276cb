import { HttpError, ToolkitError } from '../errors.js';

/** An error of a resumable export, with what to do next: progress is saved in `statePath`. */
export function withResumeAdvice(err: unknown, statePath: string | undefined): unknown {
  if (!statePath || !(err instanceof ToolkitError) || err.code === 'state-mismatch' || err.code === 'usage') return err;
  // Whether running again can help: a refused key can be replaced; a bad query or page size cannot be resumed.
  const next: ResumeAdvice =
    err.code === 'auth' ? 'new-key' : err instanceof HttpError && !err.retryable ? 'afresh' : 'resume';
  // A file that could not be written (a full disk): the files are cut back to the state when resumed.
  const advice =
    err.code === 'io'
      ? `once ${err.details['errno'] === 'ENOSPC' || err.details['errno'] === 'EDQUOT' ? 'space is freed' : 'the file can be written'}, ${RESUME_ADVICE.resume}`
      : RESUME_ADVICE[next];
  return new ToolkitError(`${err.message}\nprogress is saved in ${statePath}: ${advice}`, err.code, {
    cause: err,
    details: { ...err.details, statePath, next },
  });
}

/** What to do after an export failed with its progress saved (an error's `details.next`). */
export type ResumeAdvice = 'resume' | 'new-key' | 'afresh';

const RESUME_ADVICE: Record<ResumeAdvice, string> = {
  resume: 'run the same export again with `resume` to continue',
  'new-key': 'run again with a valid key (`apiKey` or SCHOLARLY_API_KEY) and `resume` to continue',
  afresh: 'the same export would fail the same way; a changed query or `pageSize` starts afresh (with `restart`)',
};
