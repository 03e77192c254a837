// Each app's environment in a run that kills its workers (the chaos suite, the soak, the crash specs): short locks,
// stalled checks and sweeps, so a killed worker's work comes back in seconds, not the production minutes.

/** Variables per app of the table, over the app table's own. */
export const CHAOS_ENV = {
  'authorizer-sim': {},
  issuer: {
    ISSUER_CONCURRENCY: '8',
    ISSUER_JOB_LOCK_MS: '3000',
    ISSUER_STALLED_CHECK_MS: '1000',
    SWEEPER_INTERVAL_MS: '1000',
    SWEEPER_STALE_AFTER_MS: '5000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  canceller: {
    CANCELLER_JOB_LOCK_MS: '2000',
    CANCELLER_STALLED_CHECK_MS: '1000',
    CANCELLER_SWEEP_INTERVAL_MS: '1000',
    CANCELLER_SWEEP_STALE_AFTER_MS: '3000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  'webhook-dispatcher': {
    WEBHOOK_RETRY_BASE_DELAY_MS: '100',
    WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    WEBHOOK_SWEEP_GRACE_MS: '2000',
    WEBHOOK_DISPATCHER_JOB_LOCK_MS: '2000',
    WEBHOOK_DISPATCHER_STALLED_CHECK_MS: '1000',
  },
  'pdf-renderer': {
    PDF_RENDERER_PAGES: '2',
    PDF_RENDERER_JOB_LOCK_MS: '3000',
    PDF_RENDERER_STALLED_CHECK_MS: '1000',
  },
  'received-sync': {
    RECEIVED_SYNC_SCHEDULES: 'off',
    // A manifestation whose job the Redis flush took is re-driven within the settle time (the default waits 3 min).
    RECEIVED_MANIFESTATION_REDRIVE_AFTER_MS: '20000',
    RECEIVED_MANIFESTATION_REDRIVE_INTERVAL_MS: '5000',
    RECEIVED_SYNC_JOB_LOCK_MS: '3000',
    RECEIVED_SYNC_STALLED_CHECK_MS: '1000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  gateway: {
    ISSUE_WAIT_MS: '4000',
    AMENDMENT_WAIT_MS: '4000',
    PDF_WAIT_MS: '5000',
    QUEUE_AMENDMENTS_ATTEMPTS: '20',
    QUEUE_AMENDMENTS_BACKOFF_MS: '200',
    // The load is the test's, not a tenant's abuse: no operation may be throttled.
    RATE_LIMIT_CREATE_INVOICE: '1000000',
    RATE_LIMIT_CANCEL_INVOICE: '1000000',
    RATE_LIMIT_CORRECT_INVOICE: '1000000',
    RATE_LIMIT_INVALIDATE_NUMBERING: '1000000',
    RATE_LIMIT_LIST_INVALIDATIONS: '1000000',
    RATE_LIMIT_GET_INVOICE: '1000000',
    RATE_LIMIT_LIST_INVOICES: '1000000',
    RATE_LIMIT_GET_INVOICE_PDF: '1000000',
    RATE_LIMIT_SYNC_RECEIVED_INVOICES: '1000000',
    RATE_LIMIT_LIST_RECEIVED_INVOICES: '1000000',
    RATE_LIMIT_CREATE_WEBHOOK: '1000000',
  },
} satisfies Record<string, Record<string, string>>;
