package server_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// watchService sends the events from the request's from_sequence up to `until`, then waits
// for the end of the stream and answers as the encounter service does: Canceled.
type watchService struct {
	encounterv1.UnimplementedEncounterServiceServer
	until uint64
	sent  chan struct{}
	// ended, when set, hears the end of each stream's context.
	ended chan struct{}
}

func (w *watchService) WatchEncounter(req *encounterv1.WatchEncounterRequest, stream grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	for seq := req.GetFromSequence(); seq <= w.until; seq++ {
		if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: &encounterv1.Event{Sequence: seq}}); err != nil {
			return err
		}
	}
	w.sent <- struct{}{}
	<-stream.Context().Done()
	if w.ended != nil {
		w.ended <- struct{}{}
	}
	return status.Error(codes.Canceled, "the watch ended: the client left or the server is shutting down")
}

// A watch ended by the server's shutdown reports Unavailable, which a client retries, with
// the sequence to resume from, not Canceled; its log line stays at INFO (a stop is no
// failure). A stream opened while the server stops is refused the same way.
func TestShutdownEndsWatchesWithUnavailable(t *testing.T) {
	var logs syncBuffer
	srv := server.New(slog.New(slog.NewTextHandler(&logs, nil)))
	svc := &watchService{until: 7, sent: make(chan struct{}, 2)}
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, svc)
	lis := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()
	c := encounterv1.NewEncounterServiceClient(dialPlain(t, lis.Addr().String()))

	// One watch received events 5 to 7; another, from 9, nothing yet.
	w1, err := c.WatchEncounter(context.Background(), &encounterv1.WatchEncounterRequest{EncounterId: "enc-abc", FromSequence: 5}, grpc.WaitForReady(true))
	require.NoError(t, err)
	for seq := uint64(5); seq <= 7; seq++ {
		m, err := w1.Recv()
		require.NoError(t, err)
		require.Equal(t, seq, m.GetEvent().GetSequence())
	}
	w2, err := c.WatchEncounter(context.Background(), &encounterv1.WatchEncounterRequest{EncounterId: "enc-abc", FromSequence: 9})
	require.NoError(t, err)
	<-svc.sent
	<-svc.sent

	cancel()
	_, err = w1.Recv()
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.Equal(t, "the server is shutting down; resume from sequence 8", status.Convert(err).Message())
	_, err = w2.Recv()
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.Equal(t, "the server is shutting down; resume from sequence 9", status.Convert(err).Message())
	require.NoError(t, <-served)
	require.Contains(t, logs.String(), `level=INFO msg="finished call"`)
	require.Contains(t, logs.String(), `grpc.code=Canceled grpc.error="the server is shutting down; resume from sequence 8"`)
	require.NotContains(t, logs.String(), "level=ERROR")
}

// A watch its client cancels is not taken for a shutdown: the handler's own status stands.
func TestClientCancelIsNotShutdown(t *testing.T) {
	var logs syncBuffer
	srv := server.New(slog.New(slog.NewTextHandler(&logs, nil)))
	svc := &watchService{until: 1, sent: make(chan struct{}, 1), ended: make(chan struct{}, 1)}
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, svc)
	lis := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()
	c := encounterv1.NewEncounterServiceClient(dialPlain(t, lis.Addr().String()))
	wctx, wcancel := context.WithCancel(context.Background())
	w, err := c.WatchEncounter(wctx, &encounterv1.WatchEncounterRequest{EncounterId: "enc-abc", FromSequence: 1}, grpc.WaitForReady(true))
	require.NoError(t, err)
	_, err = w.Recv()
	require.NoError(t, err)
	<-svc.sent
	wcancel()
	_, err = w.Recv()
	require.Equal(t, codes.Canceled, status.Code(err))
	<-svc.ended // the server saw the client leave
	cancel()    // the graceful stop waits for the handler, and its log line
	require.NoError(t, <-served)
	require.Contains(t, logs.String(), `grpc.code=Canceled grpc.error="rpc error: code = Canceled desc = the watch ended: the client left or the server is shutting down"`)
	require.NotContains(t, logs.String(), "resume from")
}
