// Injection tokens for values that are not classes.
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');
export const LOGGER = Symbol('LOGGER');
