// Generated JobSet manifests for the renderer's size tests: `jobs` replicated jobs, each a few
// pods with GPU, CPU and memory requests, padded with the env, labels and args a real training
// job carries, so that 999 jobs come to about 1.1 MB of YAML.

/** `{ text, gpus }`: the YAML text and the total GPUs it asks for. */
export function replicatedJobSet(jobs, { name = 'generated', padding = 1 } = {}) {
  const lines = ['apiVersion: jobset.x-k8s.io/v1alpha2', 'kind: JobSet', 'metadata:', `  name: ${name}`, '  namespace: research', 'spec:', '  replicatedJobs:'];
  let gpus = 0;
  for (let i = 0; i < jobs; i++) {
    const replicas = 1 + (i % 3);
    const gpu = 1 + (i % 4);
    gpus += replicas * gpu;
    lines.push(
      `    - name: job-${String(i).padStart(4, '0')}`,
      `      replicas: ${replicas}`,
      '      template:',
      '        metadata:',
      '          labels:',
      `            team: team-${i % 17}`,
      `            shard: "${i}"`,
      '        spec:',
      '          parallelism: 1',
      '          completions: 1',
      '          backoffLimit: 3',
      '          template:',
      '            spec:',
      '              restartPolicy: Never',
      '              containers:',
      '                - name: trainer',
      '                  image: registry.example/llm/trainer:1.4',
      '                  args: ["--config", "/etc/train/config.yaml", "--shard", "' + i + '"]',
      '                  env:',
    );
    for (let e = 0; e < 4 * padding; e++)
      lines.push(`                    - name: SETTING_${e}`, `                      value: "value-${i}-${e}-with-some-length"`);
    lines.push(
      '                  resources:',
      '                    requests:',
      `                      cpu: "${2 + (i % 8)}"`,
      `                      memory: ${8 + (i % 4) * 8}Gi`,
      `                      nvidia.com/gpu: ${gpu}`,
      '                    limits:',
      `                      nvidia.com/gpu: ${gpu}`,
    );
  }
  return { text: `${lines.join('\n')}\n`, gpus };
}
