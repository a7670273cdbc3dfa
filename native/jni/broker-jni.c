/*
 * JNI entry points for the Java supervisor's path through one notification: receive, the call's kind,
 * the broker's lookup, its answer. The rest of libheimdall is reached through JNA; these are not,
 * because on the child's CPU every nanosecond of a crossing lies on the round trip's path, and a JNA
 * call (arguments converted through libffi) cost 5-10% of a round trip there, against about 1% for JNI
 * (measured with ./lab broker bench --sup-cpu same). Thin: no logic of their own; hl_broker.h says what
 * each function does.
 */
#include <jni.h>

#include "hl_broker.h"

#define UNUSED (void)env, (void)cls

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_recv(JNIEnv *env, jclass cls, jint listener, jint stopfd,
							       jlong out_addr)
{
	UNUSED;
	return hl_notif_recv(listener, stopfd, (long)out_addr);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_recvWait(JNIEnv *env, jclass cls, jint listener,
								   jlong out_addr)
{
	UNUSED;
	return hl_notif_recv_wait(listener, (long)out_addr);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_answerRecvWait(JNIEnv *env, jclass cls, jint listener,
									 jlong id, jint err, jlong val, jint flags,
									 jlong out_addr)
{
	UNUSED;
	return hl_notif_answer_recv_wait(listener, (long)id, err, (long)val, flags, (long)out_addr);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_call(JNIEnv *env, jclass cls, jint listener, jlong notif_addr)
{
	UNUSED;
	return hl_broker_call(listener, (long)notif_addr);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_open(JNIEnv *env, jclass cls, jint listener, jlong notif_addr,
							       jlong path_addr, jint path_len, jint in_dirfd)
{
	UNUSED;
	return hl_broker_open(listener, (long)notif_addr, (long)path_addr, path_len, in_dirfd);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_send(JNIEnv *env, jclass cls, jint listener, jlong notif_addr,
							       jint fd)
{
	UNUSED;
	return hl_broker_send(listener, (long)notif_addr, fd);
}

JNIEXPORT jint JNICALL Java_heimdall_lab_broker_BrokerJni_refuse(JNIEnv *env, jclass cls, jint listener, jlong id,
								 jint fd, jint err)
{
	UNUSED;
	return hl_broker_refuse(listener, (long)id, fd, err);
}
