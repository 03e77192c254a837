// OpenAPI of what every list route shares (../http/pagination.ts): the `page_size` parameter and the envelope of its
// examples' answers.
import { ApiQuery } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageEnvelope } from '../http/pagination.js';

/** `page_size`, with two request examples: the default size (named `exampleName`) and `page_size_too_large` (→ 422). */
export const PageSizeQuery = (exampleName: string) =>
  ApiQuery({
    name: 'page_size',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    examples: {
      [exampleName]: { summary: 'Twenty rows', value: DEFAULT_PAGE_SIZE },
      page_size_too_large: { summary: `Over ${MAX_PAGE_SIZE}: 422`, value: MAX_PAGE_SIZE + 1 },
    },
  });

/** An example answer: the first page (of the default size) when `rows` are all there is, enveloped as the routes do. */
export const firstPageExample = (rows: unknown[]) => pageEnvelope(rows.length, { page: 1, page_size: DEFAULT_PAGE_SIZE }, rows);
