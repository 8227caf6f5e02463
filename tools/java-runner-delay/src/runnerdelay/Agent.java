package runnerdelay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A measuring aid, never shipped: changes how the runner of Pulumi's Java SDK (com.pulumi:pulumi 1.36.1) waits
 * for the program's pending tasks, to measure what its loop costs (BENCHMARKS.md, "Java's runner loop").
 *
 * <p>Its argument is a comma-separated list: {@code delay} waits 10 ms between the loop's turns, as
 * pulumi/pulumi-java#2314 does upstream; {@code unformatted} leaves out the text the loop formats of every pending
 * task at each turn for a log at FINEST (which it formats whether or not that level is on); {@code count=<file>}
 * appends to the file how many calls it rewrote in this JVM.
 */
public final class Agent {
  private static final String RUNNER = "com/pulumi/deployment/internal/DeploymentImpl$DefaultRunner";
  private static final String FUTURES = "com/pulumi/core/internal/ContextAwareCompletableFuture";
  private static final String RUN_ASYNC = "(Ljava/lang/Runnable;)Ljava/util/concurrent/CompletableFuture;";
  private static final String FORMAT = "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;";

  /** How many calls the transformer rewrote. */
  private static volatile int rewritten = 0;

  private Agent() {}

  /** The JVM's entry for -javaagent: registers the transformer. */
  public static void premain(String args, Instrumentation instrumentation) {
    List<String> options = Arrays.asList((args == null ? "" : args).split(","));
    boolean delay = options.contains("delay");
    boolean unformatted = options.contains("unformatted");
    instrumentation.addTransformer(new ClassFileTransformer() {
      @Override
      public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        return RUNNER.equals(name) ? rewrite(bytes, delay, unformatted) : null;
      }
    });
    options.stream().filter(o -> o.startsWith("count=")).findFirst().ifPresent(o -> Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        Files.writeString(Path.of(o.substring(6)), rewritten + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    })));
  }

  /** loopUntilDone's re-queueing goes through {@link #later}; checkForTasks's String.format through {@link #unformatted}. */
  static byte[] rewrite(byte[] bytes, boolean delay, boolean unformatted) {
    ClassReader reader = new ClassReader(bytes);
    ClassWriter writer = new ClassWriter(reader, 0);
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor inner = super.visitMethod(access, name, desc, signature, exceptions);
        boolean loop = delay && name.equals("loopUntilDone");
        boolean check = unformatted && name.equals("checkForTasks");
        if (!loop && !check) return inner;
        return new MethodVisitor(Opcodes.ASM9, inner) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (loop && opcode == Opcodes.INVOKESTATIC && owner.equals(FUTURES) && method.equals("runAsync") && d.equals(RUN_ASYNC)) {
              rewritten++;
              super.visitMethodInsn(opcode, "runnerdelay/Agent", "later", RUN_ASYNC, false);
            } else if (check && opcode == Opcodes.INVOKESTATIC && owner.equals("java/lang/String") && method.equals("format") && d.equals(FORMAT)) {
              rewritten++;
              super.visitMethodInsn(opcode, "runnerdelay/Agent", "unformatted", FORMAT, false);
            } else {
              super.visitMethodInsn(opcode, owner, method, d, itf);
            }
          }
        };
      }
    }, 0);
    return writer.toByteArray();
  }

  /** Runs the loop's next turn 10 ms from now instead of at once. */
  public static CompletableFuture<Void> later(Runnable turn) {
    return CompletableFuture.runAsync(turn, CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS));
  }

  /** The format itself, without its arguments' text: what a FINEST log that is off would not need. */
  public static String unformatted(String format, Object... args) {
    return format;
  }
}
