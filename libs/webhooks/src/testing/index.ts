// Test support for the delivery path (this lib's tests, the dispatcher's end-to-end tests, the benchmark).
export {
  answerStatus,
  startWebhookReceiver,
  type ReceivedRequest,
  type ReceiverOptions,
  type Responder,
  type WebhookReceiver,
} from './webhook-receiver.js';
