// Webhook delivery core (issue 17): what the gateway's registration endpoints, the outbox relay and the
// webhook-dispatcher app compose. See README.md for the contract an integrator sees.
export {
  WEBHOOK_EVENTS,
  endpointReceives,
  isWebhookEventName,
  parseEventSelection,
  type EventSelectionResult,
  type WebhookEventName,
} from './events/event-names.js';
export {
  InvalidAmountError,
  eventBody,
  jsonNumberToken,
  statusOfEvent,
  type DocumentType,
  type WebhookEventInput,
  type WebhookEventPayload,
} from './events/event-payload.js';
export {
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  epochSeconds,
  signatureDigest,
  signatureHeader,
  type SignatureInput,
} from './signing/sign.js';
export {
  SIGNATURE_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhookSignature,
  type VerificationFailure,
  type VerificationInput,
  type VerificationResult,
} from './signing/verify.js';
export { PRODUCTION_TARGET_POLICY, addressRefusal, isLoopbackHostname, type TargetPolicy } from './delivery/address-policy.js';
export { TargetRefusedError, guardedConnector, systemResolver, type HostResolver } from './delivery/guarded-connector.js';
export { MAX_WEBHOOK_URL_LENGTH, checkWebhookTarget, type TargetCheck, type TargetCheckOptions } from './delivery/target-check.js';
export { classifyFailure, type DeliveryResult } from './delivery/classify-failure.js';
export {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  createWebhookDeliverer,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type WebhookDeliverer,
  type WebhookDelivererOptions,
} from './delivery/deliverer.js';
export {
  DEFAULT_RETRY_BASE_DELAY_MS,
  RETRY_DELAY_MULTIPLES,
  RETRY_JITTER,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_RETRIES,
  nextAttemptAt,
  type RetryScheduleOptions,
} from './schedule/retry-schedule.js';
export { MAX_SECRET_LENGTH, MIN_SECRET_LENGTH, secretRefusal } from './registration/secret.js';
export { registerWebhook, type RegisterWebhookDeps, type RegistrationResult } from './registration/register-webhook.js';
export * from './dispatch/index.js';
