/**
 * The old path of `TokenMetadataRecord`, the schemas of one token-metadata record. The
 * name `TokenMetadata` is the service's (`@solfx/rpc/TokenMetadata`); this module keeps
 * imports of `@solfx/core/TokenMetadata` working.
 *
 * @deprecated Import `@solfx/core/TokenMetadataRecord`.
 * @since 0.1.0
 */
export * from "./TokenMetadataRecord.js"
