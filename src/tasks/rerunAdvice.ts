/**
 * The one thing to do after a load or upsert that stopped: resume it when its log holds progress, else run
 * it again as it was (resuming a log of nothing is the same run with a flag more).
 */
export function rerunAdvice(progressSaved: boolean, what: string): string {
  return progressSaved
    ? `; the ${what} are in the load log: run again with \`resume\` to continue`
    : '; nothing was loaded: run it again as it was';
}
