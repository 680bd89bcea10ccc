package encounter

// ResolverTarget is resolverTarget, for the tests.
var ResolverTarget = resolverTarget
