// Test support, published as `@talao/persistence/testing`: the run's database and statement counting.
export * from './counting-sql-runner.js';
export * from './test-database.js';
