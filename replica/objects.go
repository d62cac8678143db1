package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"tradejournal/files"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// objects is where the files beside the database go at a replica: the
// secret and the document blobs, by names relative to the replica's root
// ("secret", "files/sha256/ab/ab…"). Litestream's clients write only its
// own LTX files, so each kind of replica has one of these as well.
type objects interface {
	// put stores r under name, whole or not at all.
	put(ctx context.Context, name string, r io.Reader, size int64) error
	// get opens name; fs.ErrNotExist when there is none.
	get(ctx context.Context, name string) (io.ReadCloser, error)
	// list names the objects under prefix (a folder, ending in "/").
	list(ctx context.Context, prefix string) ([]string, error)
	close() error
}

// fileObjects keeps the objects in a folder of this machine (or a
// mounted one).
type fileObjects struct{ root string }

func (o fileObjects) put(_ context.Context, name string, r io.Reader, _ int64) error {
	dst := filepath.Join(o.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return files.WriteSynced(filepath.Dir(dst), ".put-*", dst, r)
}

func (o fileObjects) get(_ context.Context, name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(o.root, filepath.FromSlash(name)))
}

func (o fileObjects) list(_ context.Context, prefix string) ([]string, error) {
	var out []string
	root := filepath.Join(o.root, filepath.FromSlash(prefix))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".put-") {
			return err
		}
		rel, err := filepath.Rel(o.root, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	return out, err
}

func (fileObjects) close() error { return nil }

// sftpObjects keeps the objects on an SFTP server, over a connection of
// their own.
type sftpObjects struct {
	ssh  *ssh.Client
	sftp *sftp.Client
	root string
}

func dialSFTP(addr string, config *ssh.ClientConfig, root string) (*sftpObjects, error) {
	conn, err := ssh.Dial("tcp", addr, config)
	if err != nil {
		return nil, err
	}
	client, err := sftp.NewClient(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &sftpObjects{ssh: conn, sftp: client, root: root}, nil
}

func (o *sftpObjects) put(_ context.Context, name string, r io.Reader, _ int64) error {
	dst := path.Join(o.root, name)
	if err := o.sftp.MkdirAll(path.Dir(dst)); err != nil {
		return err
	}
	tmp := path.Join(path.Dir(dst), ".put-"+path.Base(dst))
	f, err := o.sftp.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.ReadFrom(r); err != nil {
		f.Close()
		o.sftp.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		o.sftp.Remove(tmp)
		return err
	}
	// PosixRename replaces an older temp's target where the server allows
	// it; a blob is never replaced by different bytes, so either is right.
	if err := o.sftp.PosixRename(tmp, dst); err != nil {
		if err := o.sftp.Rename(tmp, dst); err != nil {
			o.sftp.Remove(tmp)
			return err
		}
	}
	return nil
}

func (o *sftpObjects) get(_ context.Context, name string) (io.ReadCloser, error) {
	f, err := o.sftp.Open(path.Join(o.root, name))
	if err != nil && isNotExist(err) {
		return nil, fs.ErrNotExist
	}
	return f, err
}

func (o *sftpObjects) list(_ context.Context, prefix string) ([]string, error) {
	var out []string
	w := o.sftp.Walk(path.Join(o.root, prefix))
	for w.Step() {
		if err := w.Err(); err != nil {
			if isNotExist(err) {
				continue
			}
			return nil, err
		}
		if w.Stat().IsDir() || strings.HasPrefix(path.Base(w.Path()), ".put-") {
			continue
		}
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(w.Path(), o.root), "/"))
	}
	return out, nil
}

func (o *sftpObjects) close() error {
	err := o.sftp.Close()
	if cerr := o.ssh.Close(); err == nil {
		err = cerr
	}
	return err
}

func isNotExist(err error) bool {
	var status *sftp.StatusError
	return errors.Is(err, fs.ErrNotExist) || errors.As(err, &status) && status.FxCode() == sftp.ErrSSHFxNoSuchFile
}

// s3Objects keeps the objects in an S3-compatible bucket, under the
// replica's prefix.
type s3Objects struct {
	client *s3.Client
	bucket string
	prefix string
}

// newS3Objects connects as Litestream's S3 client is configured: the AWS
// environment's credentials, the URL's endpoint and region.
func newS3Objects(ctx context.Context, bucket, prefix, region, endpoint string, pathStyle bool) (*s3Objects, error) {
	if region == "" {
		region = "us-east-1"
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return nil, fmt.Errorf("s3 credentials: %w", err)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if endpoint != "" {
			if !strings.Contains(endpoint, "://") {
				endpoint = "https://" + endpoint
			}
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = pathStyle
		}
	})
	return &s3Objects{client: client, bucket: bucket, prefix: strings.Trim(prefix, "/")}, nil
}

func (o *s3Objects) key(name string) string {
	if o.prefix == "" {
		return name
	}
	return o.prefix + "/" + name
}

func (o *s3Objects) put(ctx context.Context, name string, r io.Reader, size int64) error {
	_, err := o.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(o.bucket),
		Key:           aws.String(o.key(name)),
		Body:          r,
		ContentLength: aws.Int64(size),
	})
	return err
}

func (o *s3Objects) get(ctx context.Context, name string) (io.ReadCloser, error) {
	out, err := o.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(o.key(name))})
	var missing *s3types.NoSuchKey
	if errors.As(err, &missing) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	return out.Body, nil
}

func (o *s3Objects) list(ctx context.Context, prefix string) ([]string, error) {
	var out []string
	p := s3.NewListObjectsV2Paginator(o.client, &s3.ListObjectsV2Input{Bucket: aws.String(o.bucket), Prefix: aws.String(o.key(prefix))})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, obj := range page.Contents {
			out = append(out, strings.TrimPrefix(strings.TrimPrefix(aws.ToString(obj.Key), o.prefix), "/"))
		}
	}
	return out, nil
}

func (*s3Objects) close() error { return nil }
