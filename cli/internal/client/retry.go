package client

import (
	"context"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Waiting as a limit's refusal asks: a server at a rate limit (or another limit that will
// lift) answers ResourceExhausted with a google.rpc.RetryInfo, having done nothing; the CLI
// sends the call again after that delay, a few times, when the delay is short enough to wait
// for. A longer one is the refusal the user reads ("retry in 16m40s").
const (
	// MaxRetryWait is the longest RetryInfo delay the CLI waits for.
	MaxRetryWait = 5 * time.Second
	// retryAttempts bounds the calls of one request: a flood of callers keeps no one waiting
	// for ever.
	retryAttempts = 4
)

// RetryDelay is the delay err's google.rpc.RetryInfo asks for, if err is a ResourceExhausted
// carrying one.
func RetryDelay(err error) (time.Duration, bool) {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.ResourceExhausted {
		return 0, false
	}
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay() != nil {
			return max(ri.GetRetryDelay().AsDuration(), 0), true
		}
	}
	return 0, false
}

// retryUnary sends a unary call again after the delay of a RetryInfo refusal, at most
// MaxRetryWait and within the caller's context. A command sent again keeps its command id,
// so the service records it once even had the refusal come after it ran.
func retryUnary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	for attempt := 1; ; attempt++ {
		err := invoker(ctx, method, req, reply, cc, opts...)
		d, ok := RetryDelay(err)
		if !ok || d > MaxRetryWait || attempt == retryAttempts {
			return err
		}
		if dl, has := ctx.Deadline(); has && time.Until(dl) < d {
			return err
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}
