// Operator commands (admin users, API keys, backup and restore) arrive with the admin issue.
console.error('No CLI commands yet.');
process.exit(2);
