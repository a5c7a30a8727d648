// The official TypeScript SDK client's task API (v1, experimental, 2025-11-25)
// against examples/support's build_report: callToolStream with a task, then
// tasks/get, tasks/result, tasks/list and a cancel of the finished task; and
// the same tool as a plain call. See lib.mjs for the usage.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { run } from './lib.mjs';

await run({}, async (client, s) => {
  const tasks = client.experimental.tasks;
  const messages = await s.step('callToolStream', async () => {
    const out = [];
    const stream = tasks.callToolStream({ name: 'build_report', arguments: { customer: 'acme' } }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    for await (const m of stream) {
      out.push(m.type === 'error' ? { type: 'error', error: String(m.error?.message ?? m.error) } : m);
    }
    return out;
  });
  const taskId = messages?.find((m) => m.type === 'taskCreated')?.task?.taskId ?? 'none';
  s.set('taskId', taskId);
  await s.step('getTask', () => tasks.getTask(taskId));
  await s.step('getTaskResult', () => tasks.getTaskResult(taskId, CallToolResultSchema));
  await s.step('listTasks', () => tasks.listTasks());
  await s.step('cancelFinishedTask', () => tasks.cancelTask(taskId));
  await s.step('getUnknownTask', () => tasks.getTask('no-such-task'));
  await s.step('callPlain', () => client.callTool({ name: 'build_report', arguments: { customer: 'globex' } }));
});
