/** The OpenTelemetry instrumentation scope of every doppel span and metric. */
export const INSTRUMENTATION_SCOPE = 'doppel';
