// The typed client is generated from the served OpenAPI document; the generator lands with it.
export {};
