import Joi from 'joi';
import { anyUuid, errorSchema, idParams, nullableTimestamp, timestamp } from '../common.ts';
import { defineRoute } from '../route.ts';

export const JOB_STATES = ['waiting', 'active', 'completed', 'failed'] as const;

export const jobSchema = Joi.object({
  id: anyUuid().required(),
  kind: Joi.string().required().description('IMPORT, RECATEGORIZATION, …'),
  state: Joi.string()
    .valid(...JOB_STATES)
    .required(),
  progress: Joi.number().integer().min(0).max(100).required(),
  result: Joi.any()
    .allow(null)
    .required()
    .description(
      'What the job produced once completed (counts), else null (a statement import: `{lines_read}` while it runs)',
    ),
  error: Joi.string().allow(null).required().description('Why it failed, in Portuguese; null otherwise'),
  createdAt: timestamp().required(),
  finishedAt: nullableTimestamp().required(),
}).label('Job');

export const jobRoutes = [
  defineRoute({
    operationId: 'getJob',
    method: 'get',
    path: '/v1/jobs/:id',
    service: 'ledger',
    tag: 'Jobs',
    summary: 'State and progress of a background job',
    description:
      "Any job the caller's context started (imports, recategorization of history). `progress` goes 0–100; `result` holds the counts once `completed` (a statement import's holds `{lines_read}` while it runs); `error` says why in Portuguese once `failed` (a payload refused as invalid wrote nothing; a job that failed part-way, after its retries, may have done part of its work, and since every step is idempotent sending it again completes it without duplicates). Another context's job is 404.",
    params: idParams,
    responses: {
      200: { description: 'The job', schema: jobSchema },
      404: { description: 'Unknown job', schema: errorSchema },
    },
  }),
];
