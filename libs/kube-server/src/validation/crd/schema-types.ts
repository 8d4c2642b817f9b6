/** The parts of apiextensions.k8s.io/v1 JSONSchemaProps this module reads. */
import { isJsonObject } from '#kube-core';

export interface JsonSchemaProps {
  type?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  minProperties?: number;
  maxProperties?: number;
  required?: string[];
  properties?: Record<string, JsonSchemaProps>;
  additionalProperties?: JsonSchemaProps | boolean;
  items?: JsonSchemaProps;
  allOf?: JsonSchemaProps[];
  anyOf?: JsonSchemaProps[];
  oneOf?: JsonSchemaProps[];
  not?: JsonSchemaProps;
  description?: string;
  title?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-validations'?: unknown[];
  [extra: string]: unknown;
}

export type Json = Record<string, unknown>;

/** The schema that governs a map's values, if it is a map (additionalProperties with a schema). */
export function valueSchema(schema: JsonSchemaProps): JsonSchemaProps | undefined {
  return isJsonObject(schema.additionalProperties)
    ? (schema.additionalProperties as JsonSchemaProps)
    : undefined;
}

/** Whether unknown fields survive at this node (explicit preserve, or `additionalProperties: true`). */
export function preservesUnknown(schema: JsonSchemaProps): boolean {
  return schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
}
