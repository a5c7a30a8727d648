// Package tasks holds what is kept of a task (a long-running tool call,
// basic/utilities/tasks.mdx and the 2026-07-28 extension
// io.modelcontextprotocol/tasks): its Record, the Store that keeps records
// until they expire (NewMemoryStore in this process; runtime/redisstore
// shares one between replicas), and the record's two wire shapes
// (Record.AppendLegacy for 2025-11-25, Record.AppendModern for SEP-2663).
//
// Running a task (its handler, input requests, cancellation, the messages
// between replicas) is package runtime's, which names these types
// TaskRecord, TaskStore, TaskStatus and NewMemoryTaskStore; give a store to
// runtime.WithTaskStore or runtime.WithStore.
package tasks
