// Package clienttest is what the tests of the CLI's packages share: Main, which gives the CLI
// under test a dev signing key the test servers verify; Fake, an EncounterService and
// RulesService that records requests and answers canned responses; RuleServer, a one-encounter
// EncounterService that decides with the real rules engine and fixed dice; Stack, the real
// encounter service on a real embedded JetStream; Run, which runs a `fray` command line and
// returns its exit code, stdout and stderr; and the fixtures the tests of several rule systems
// read (the example sheets, Ruelle, events of each system).
//
// It imports the root command (cli/internal/commands), which imports every system's package:
// a test of losscmd, feeriecmd, kacmd, d20segcmd, logtools or commands that uses it is an
// external test package (package losscmd_test), which Go allows to import a package that
// imports the one under test.
package clienttest
