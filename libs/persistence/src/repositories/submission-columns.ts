// The select list of a submission record, shared by the submissions' own reads and the issue snapshot.
export const SUBMISSION_COLUMNS = `id::text AS id, invoice_id::text AS "invoiceId", company_id::text AS "companyId", attempt, operation, endpoint,
       request_body AS "requestBody", response_body AS "responseBody", http_status AS "httpStatus", outcome,
       status_code AS "statusCode", status_message AS "statusMessage", sent_at AS "sentAt", answered_at AS "answeredAt"`;
