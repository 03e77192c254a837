// The base class of an app's handler table (a Nest controller of @JobHandler methods): it takes the app's
// dependencies, made by the definition's `dependencies`, from WORKER_DEPENDENCIES once for every table.
import { Inject } from '@nestjs/common';
import { WORKER_DEPENDENCIES } from './worker-module.js';

/** `@Controller() class MyHandlers extends HandlerTable<MyDependencies>`: handlers read `this.dependencies`. */
export abstract class HandlerTable<D> {
  constructor(@Inject(WORKER_DEPENDENCIES) protected readonly dependencies: D) {}
}
