// The official TypeScript SDK client against examples/conformance: logging
// (setLoggingLevel and notifications/message, filtered by level), progress
// (onprogress), and the server's requests to the client: sampling
// (sampling/createMessage) and elicitation (elicitation/create, accepted
// then declined). See lib.mjs for the usage.
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { run } from './lib.mjs';

await run({ sampling: {}, elicitation: {} }, async (client, s) => {
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  const samplingRequests = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    samplingRequests.push(req.params);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'a reply from the interop model' },
      model: 'interop-model',
      stopReason: 'endTurn',
    };
  });
  const elicitRequests = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    elicitRequests.push(req.params);
    if (elicitRequests.length === 1) {
      return { action: 'accept', content: { username: 'alice', email: 'alice@example.com' } };
    }
    return { action: 'decline' };
  });

  await s.step('setLevelDebug', () => client.setLoggingLevel('debug'));
  await s.step('callLogging', () => client.callTool({ name: 'test_tool_with_logging', arguments: {} }));
  s.set('logsAtDebug', logs.splice(0));
  await s.step('setLevelError', () => client.setLoggingLevel('error'));
  await s.step('callLoggingFiltered', () => client.callTool({ name: 'test_tool_with_logging', arguments: {} }));
  s.set('logsAtError', logs.splice(0));

  const progress = [];
  await s.step('callProgress', () =>
    client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    }));
  s.set('progress', progress);

  await s.step('callSampling', () =>
    client.callTool({ name: 'test_sampling', arguments: { prompt: 'What is the capital of France?' } }));
  s.set('samplingRequests', samplingRequests);

  await s.step('callElicitationAccept', () =>
    client.callTool({ name: 'test_elicitation', arguments: { message: 'Please provide your username and email' } }));
  await s.step('callElicitationDecline', () =>
    client.callTool({ name: 'test_elicitation', arguments: { message: 'Once more, please' } }));
  s.set('elicitRequests', elicitRequests);
});
