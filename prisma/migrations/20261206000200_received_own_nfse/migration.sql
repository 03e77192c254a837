-- received-sync stored the NFS-e a company issued itself, which ADN distributes to the provider too, as received
-- invoices. They are not (SPEC.md: documents other companies issued against the company's tax id): removed, with
-- their events (the events of such a document name the provider's inscription at positions 10–23 of its key).
DELETE FROM "received_events" e USING "companies" c
 WHERE e.company_id = c.id AND length(e.access_key) = 50 AND substr(e.access_key, 10, 14) = lpad(c.tax_id, 14, '0');
DELETE FROM "received_documents" d USING "companies" c
 WHERE d.company_id = c.id AND d.document_type = 'nfse' AND d.issuer_tax_id = c.tax_id;
