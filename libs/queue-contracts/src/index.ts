// @talao/queue-contracts: the contract between producers (gateway, sweepers) and workers.
export { QUEUE_NAMES, queueKeyPrefix, type QueueName } from './queue-names.js';
export {
  deliverWebhookPayloadSchema,
  amendPayloadSchema,
  invalidatePayloadSchema,
  issuePayloadSchema,
  renderPdfPayloadSchema,
  syncReceivedPayloadSchema,
  manifestPayloadSchema,
  isJobName,
  JOB_DEFINITIONS,
  JOB_NAMES,
  jobIdOf,
  parseJobPayload,
  type Job,
  type JobName,
  type JobPayload,
} from './job-payloads.js';
export {
  type AmendJobResult,
  type DecidedState,
  type DeliverWebhookJobResult,
  type IssueJobResult,
  type JobResult,
  type JobTry,
  type ReceivedChannelResult,
  type RenderPdfJobResult,
  type SyncReceivedJobResult,
  RetryLaterError,
} from './job-results.js';
export { bullJobOptions, DEFAULT_JOB_OPTIONS, jobOptionsFor, QueueOptionsError, type QueueJobOptions } from './job-options.js';
export { type EnqueueTarget, enqueueJob, enqueueReplacingEnded, type JobQueues, type RequeueTarget } from './enqueue.js';
export {
  jobOutcomeChannel,
  type JobOutcomeMessage,
  JobOutcomeSubscription,
  type OutcomePublisher,
  type OutcomeSubscriberConnection,
  publishJobOutcome,
} from './job-outcomes.js';
export { type JobEnd, type JobEndEvents, JobEndWaiter, type JobEndWaiterOptions, type SettlePlan } from './job-end-waiter.js';
