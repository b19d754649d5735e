package dev.veracity.http;

import java.time.Duration;

/**
 * A server run as its own process by {@link SigtermTest}: {@code /quick} answers after 300 ms, {@code /slow} after
 * ten minutes (longer than any test waits); prints {@code PORT n} when listening and what happened to each route on stdout, and stops on SIGTERM
 * through a shutdown hook, as the commands do.
 */
public final class SlowServerMain {

    private SlowServerMain() {
    }

    public static void main(String[] args) throws Exception {
        JsonServer server = JsonServer.builder().log(ServerLog.to(System.out))
                .limits(ServerLimits.defaults().withStopGrace(Duration.ofMillis(Long.parseLong(args[0]))))
                .route("POST", "/quick", call -> {
                    System.out.println("quick started");
                    Thread.sleep(300);
                    System.out.println("quick done");
                    return JsonReply.ok(call.body());
                })
                .route("POST", "/slow", call -> {
                    System.out.println("slow started");
                    try {
                        Thread.sleep(Duration.ofMinutes(10));
                    } catch (InterruptedException e) {
                        System.out.println("slow interrupted");
                        throw e;
                    }
                    return JsonReply.ok(call.body());
                }).start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("PORT " + server.port());
        System.out.flush();
        server.awaitStopped();
    }
}
