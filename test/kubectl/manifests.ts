/**
 * The YAML the kubectl scenario applies. The CRD group carries a per-run
 * suffix so that the scenario can run again on a long-lived real cluster.
 */
export function deploymentAndService(image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: ${image}
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 80
`;
}

export function settingsConfigMap(level: string): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: "${level}"
`;
}

export function gadgetCrd(group: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, shortNames: [gdg]}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Flavor, type: string, jsonPath: .spec.flavor}
    - {name: Count, type: integer, jsonPath: .spec.count}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              flavor: {type: string}
              count: {type: integer}
`;
}

export function gadget(group: string): string {
  return `apiVersion: ${group}/v1
kind: Gadget
metadata:
  name: first
spec:
  flavor: lemon
  count: 7
`;
}

/** A CRD and a custom resource of it in one file (kubectl maps every object before applying any). */
export function sprocketCrdAndSprocket(group: string, namespace: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sprockets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: sprockets, singular: sprocket, kind: Sprocket}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              teeth: {type: integer}
---
apiVersion: ${group}/v1
kind: Sprocket
metadata:
  name: one
  namespace: ${namespace}
spec:
  teeth: 12
`;
}
