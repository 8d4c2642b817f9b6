import type { RenderContext } from '../../engine.js';

/** A KubeVela-style webservice: Deployment output, Service in outputs, helpers, an import. */
export const WEBSERVICE = `import (
	"strconv"
)

mountsArray: {
	pvc: *[
		for v in parameter.volumeMounts.pvc {
			{
				mountPath: v.mountPath
				name:      v.name
			}
		},
	] | []
}

output: {
	apiVersion: "apps/v1"
	kind:       "Deployment"
	spec: {
		replicas: parameter.replicas
		selector: matchLabels: "app.oam.dev/component": context.name
		template: {
			metadata: labels: {
				if parameter.labels != _|_ {
					parameter.labels
				}
				"app.oam.dev/name":      context.appName
				"app.oam.dev/component": context.name
			}
			spec: containers: [{
				name:  context.name
				image: parameter.image
				if parameter["ports"] != _|_ {
					ports: [ for p in parameter.ports {
						containerPort: p.port
						protocol:      p.protocol
						name:          "port-" + strconv.FormatInt(p.port, 10)
					}]
				}
				if parameter["env"] != _|_ {
					env: parameter.env
				}
				if context["config"] != _|_ {
					env: context.config
				}
				if parameter["volumeMounts"] != _|_ {
					volumeMounts: mountsArray.pvc
				}
				if parameter["livenessProbe"] != _|_ {
					livenessProbe: parameter.livenessProbe
				}
			}]
		}
	}
}

exposePorts: [
	if parameter.ports != _|_
	for p in parameter.ports if p.expose {
		port:       p.port
		targetPort: p.port
		name:       "port-" + strconv.FormatInt(p.port, 10)
	},
]

outputs: {
	if len(exposePorts) != 0 {
		webserviceExpose: {
			apiVersion: "v1"
			kind:       "Service"
			metadata: name: context.name
			spec: {
				selector: "app.oam.dev/component": context.name
				ports: exposePorts
				type:  parameter.exposeType
			}
		}
	}
}

parameter: {
	// +usage=Specify the labels in the workload
	labels?: [string]: string
	// +usage=Which image would you like to use for your service
	// +short=i
	image: string
	// +usage=Number of pods
	replicas: *1 | int & >=0
	// +usage=Which ports do you want customer traffic sent to
	ports?: [...{
		// +usage=Number of port to expose on the pod's IP address
		port:     int & >=1 & <=65535
		protocol: *"TCP" | "UDP" | "SCTP"
		expose:   *false | bool
	}]
	// +ignore
	exposeType: *"ClusterIP" | "NodePort" | "LoadBalancer"
	env?: [...{
		name:   string
		value?: string
	}]
	volumeMounts?: {
		pvc?: [...{
			name:      string
			mountPath: string
			claimName: string
		}]
	}
	// +usage=Instructions for assessing whether the container is alive
	livenessProbe?: #HealthProbe
}

#HealthProbe: {
	httpGet?: {
		path: string
		port: int
	}
	// +usage=Seconds after the container has started before the first probe
	initialDelaySeconds: *0 | int
}
`;

/** A sidecar trait patching the workload's containers, merged by name. */
export const SIDECAR_TRAIT = `patch: {
	// +patchKey=name
	spec: template: spec: containers: [{
		name:  parameter.name
		image: parameter.image
		// +patchKey=name
		env: [{name: "SIDECAR_OF", value: context.output.metadata.name}]
	}]
}
parameter: {
	name:  string
	image: string
}
`;

export function renderContext(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    name: 'api',
    appName: 'shop',
    namespace: 'default',
    appRevision: 'shop-v1',
    appRevisionNum: 1,
    appLabels: {},
    appAnnotations: {},
    appComponents: ['api'],
    components: [{ name: 'api', type: 'webservice', properties: {} }],
    componentType: 'webservice',
    revision: 'api-v1',
    cluster: 'local',
    clusterVersion: { major: 1, minor: 37, gitVersion: 'v1.37.2', platform: 'linux/amd64' },
    publishVersion: '',
    workflowName: 'shop',
    ...overrides,
  };
}
