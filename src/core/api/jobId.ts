/**
 * What a job id is: letters, digits, `-`, `_`, `.` and `:`, starting with a letter or a digit,
 * at most 200 characters (`se_3f9a2c1b8e7d4a06`, `job-42`). The same rule for an id a person
 * types or pastes (core/jobs/jobInput.ts) and for one a server answers (core/api/jobSchemas.ts): a
 * server's id goes into request paths, tree rows, messages, an Action's outputs and a CI log, so
 * one holding `[label](command:…)`, `$(…)`, a slash or a line break is refused where it arrives.
 */
export const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

export function isJobId(value: string): boolean {
  return JOB_ID.test(value);
}
