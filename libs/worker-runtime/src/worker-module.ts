// The Nest side of a worker app, wiring only: the app's handler controllers, its dependencies as a value under
// WORKER_DEPENDENCIES (made outside Nest, from the app's config, like the gateway's resources), and the lifecycle
// that runs the periodic tasks and releases everything once the transport has drained.
import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import type { Logger } from '@talao/observability';
import { type PeriodicTask, type RunningTask, startPeriodicTask } from './periodic-task.js';

/** Injection token of the app's dependencies: `constructor(@Inject(WORKER_DEPENDENCIES) deps: MyDependencies)`. */
export const WORKER_DEPENDENCIES = Symbol('WORKER_DEPENDENCIES');

/**
 * Nest calls these around the transport's close (which drains the jobs in progress): periodic tasks stop first, so
 * none enqueues into a closing queue; connections are released last.
 */
export class WorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private running: RunningTask[] = [];

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly tasks: readonly PeriodicTask[],
    private readonly release: () => Promise<void>,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.tasks.map((task) => startPeriodicTask(task, this.logger));
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.logger.info({ signal }, `${this.name} stopping`);
    await Promise.all(this.running.map((task) => task.stop()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.release();
    this.logger.info(`${this.name} stopped`);
  }
}

@Module({})
export class WorkerModule {
  static forRoot(parts: { handlers: Type[]; dependencies: unknown; lifecycle: WorkerLifecycle }): DynamicModule {
    return {
      module: WorkerModule,
      controllers: parts.handlers,
      providers: [
        { provide: WORKER_DEPENDENCIES, useValue: parts.dependencies },
        { provide: WorkerLifecycle, useValue: parts.lifecycle },
      ],
    };
  }
}
