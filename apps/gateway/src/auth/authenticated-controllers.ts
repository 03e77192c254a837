// The two kinds of controller behind a credential. The guard runs and the rate limit counts before any handler, so
// every operation of such a controller may answer 401 and 429: the OpenAPI document lists both on each of them
// (@nestjs/swagger adds a controller's responses to each of its operations; an operation's own 401 or 429 wins).
import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/decorators.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ApiKeyGuard } from './api-key.guard.js';

/** A controller of the public API at `path`, behind an API key (ApiKeyGuard), its operations listed under `tag`. */
export const ApiKeyController = (tag: string, path: string) =>
  applyDecorators(ApiTags(tag), ApiBearerAuth(), UseGuards(ApiKeyGuard), Controller(path), ApiErrors(401, 429));

/** A controller of the operators' API at `path`, behind the ADMIN_TOKEN (AdminTokenGuard). */
export const AdminController = (path: string) =>
  applyDecorators(ApiTags('admin'), ApiBearerAuth('admin-token'), UseGuards(AdminTokenGuard), Controller(path), ApiErrors(401, 429));
