package commands

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/spf13/cobra"
)

// tokenCmd is `fray token`: a bearer token for a fray dev server, signed by its dev key.
func tokenCmd() *cobra.Command {
	command, fs := client.NewCommand("token", "--as NAME [--tenant T] [--scope \"a b\"] [--ttl 1h] | --jwks",
		fmt.Sprintf("Mints a token signed by fray dev's signing key (kept in its data folder, %s) and prints it:\n"+
			"issuer %q, audience %q, subject NAME of tenant %q unless --tenant says otherwise.\n"+
			"Send it as \"authorization: Bearer <token>\" (grpcurl -H), or give it to the CLI with --token\n"+
			"or FRAY_TOKEN. --jwks prints the dev key's public JWKS instead, for services run separately\n"+
			"(--jwks FILE --token-issuer %s).", auth.DevKeyFile, auth.DevIssuer, auth.DevAudience, auth.DevTenant, auth.DevIssuer), 0, 0)
	as := fs.String("as", client.EnvOr("FRAY_PRINCIPAL", client.DefaultPrincipal), "the token's subject, NAME or TENANT/NAME (env FRAY_PRINCIPAL)")
	tenant := fs.String("tenant", "", "the token's tenant (default: the TENANT of --as TENANT/NAME, else "+auth.DevTenant+")")
	scope := fs.String("scope", "", "scopes, space- or comma-separated (\""+identity.ScopeDelegate+"\" lets a client act on behalf of others, \""+identity.ScopeAdmin+"\" makes it its tenant's administrator (fray idle), \""+identity.ScopeResolve+"\" is the encounter service's)")
	ttl := fs.Duration("ttl", auth.DevTokenTTL, "how long the token is valid (at most "+auth.DefaultMaxLifetime.String()+")")
	key := fs.String("key", "", "the dev signing key file (default: the key of the fray dev server at --addr, then ./.fray/"+auth.DevKeyFile+"; env FRAY_DEV_KEY)")
	addr := fs.String("addr", client.EnvOr("FRAY_ADDR", client.DefaultAddr), "the fray dev server whose key to use (env FRAY_ADDR)")
	jwks := fs.Bool("jwks", false, "print the dev key's public JWKS instead of a token")
	command.RunE = client.RunE(func(_ context.Context, _ []string, stdout, stderr io.Writer) error {
		path := *key
		if path == "" {
			p, from, ok := auth.FindDevKeyFrom(*addr)
			if !ok {
				return fmt.Errorf("no dev signing key found for %s: start `fray dev` (it creates one in its data folder), or give --key", *addr)
			}
			if from == auth.DevKeyFromFallback {
				// Not the key of a fray dev noted at --addr: the one of this folder's .fray,
				// which may be another server's, whose tokens --addr's server refuses.
				abs, err := filepath.Abs(p)
				if err != nil {
					abs = p
				}
				fmt.Fprintf(stderr, "fray token: no fray dev is noted as serving on %s; signed with %s, the key in this folder (--key FILE or FRAY_DEV_KEY to choose)\n", *addr, abs)
			}
			path = p
		}
		signer, err := auth.LoadDevKey(path)
		if err != nil {
			return err
		}
		if *jwks {
			out, err := auth.MarshalJWKS(signer.Public())
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "%s\n", out)
			return err
		}
		t, subject := auth.DevSubject(*as)
		if *tenant != "" {
			t = *tenant
		}
		if err := identity.CheckName("tenant", t); err != nil {
			return client.Usagef("%v", err)
		}
		if err := identity.CheckName("subject", subject); err != nil {
			return client.Usagef("--as: %v", err)
		}
		if *ttl <= 0 || *ttl > auth.DefaultMaxLifetime {
			return client.Usagef("--ttl %s: give a positive duration of at most %s (the services refuse a token that lives longer: --token-max-lifetime)", *ttl, auth.DefaultMaxLifetime)
		}
		scopes := strings.FieldsFunc(*scope, func(r rune) bool { return r == ' ' || r == ',' })
		tok, err := signer.Mint(auth.DevClaims(t, subject, *ttl, scopes...))
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, tok)
		return err
	})
	return command
}
