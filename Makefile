.PHONY: run test generate

# Run resolver, encounter service and an embedded NATS JetStream in one process.
run:
	go run ./cli/cmd/fray dev

# Every check and every test.
test:
	./scripts/test.sh

# Regenerate gen/ from proto/.
generate:
	./scripts/generate.sh
