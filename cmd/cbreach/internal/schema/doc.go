// Package schema is the JSON that cbreach --json prints: one object per
// run (Output) or per error (Error), the same keys for every engine. Its
// version is Version; docs/json.md documents it. Scripts may rely on
// every key marked required; a key is added, never renamed or removed,
// without a new Version.
package schema
