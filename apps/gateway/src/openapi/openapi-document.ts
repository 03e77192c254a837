import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../invoices/invoice-examples.js';
import { apiDescription } from './api-description.js';
import { toOpenApi31 } from './openapi-31.js';
import { schemas } from './schemas.js';

export const OPENAPI_PATH = 'api/v1/openapi.json';
export const DOCS_PATH = 'api/v1/docs';

/** Generated from the controllers' decorators at boot; served as JSON and as a Swagger UI page (assets local). */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl?: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Talão API')
    .setDescription(apiDescription())
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'talao_<hml|prd>_<id>_<secret>',
      description: 'API key of context `api`',
    })
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'ADMIN_TOKEN (operators only)' }, 'admin-token')
    .addTag('account', 'The company and key behind the credential')
    .addTag('admin', 'Operators: companies, certificates, API keys (ADMIN_TOKEN)');
  if (publicBaseUrl) builder.addServer(publicBaseUrl);
  const document = SwaggerModule.createDocument(app, builder.build());
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(schemas as OpenAPIObject['components'] & object) },
  };
  // The ids the examples use for "one of your documents": a client (and the examples test) substitutes its own.
  return { ...toOpenApi31(document), 'x-example-placeholders': EXAMPLE_IDS } as OpenAPIObject;
}

export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    raw: ['json'],
    customSiteTitle: 'Talão API',
    swaggerOptions: { persistAuthorization: false },
  });
}
